/**
 * @module What a user's `api.ts` and `restgen.config.ts` import from `restgen`: the DSL
 * (`defineApi`, `collection`, `f`) and `defineConfig`.
 */
export { defineApi, type ApiOptions } from './define-api.ts';
export { collection, type CollectionBuilder, type LifecycleOf } from './collection.ts';
export { defineConfig, type DiffConfig, type FindingLevel, type Part, type RestgenConfig } from './define-config.ts';
export {
  f,
  type AnyField,
  type ArrayField,
  type BooleanField,
  type DateField,
  type EnumField,
  type FieldBuilders,
  type FieldModifiers,
  type FileField,
  type FileOptions,
  type FileValue,
  type FilterOptions,
  type FormatField,
  type NumberField,
  type ObjectField,
  type RefField,
  type Sortable,
  type StringField,
  type UnorderedOp,
  type ValueOf,
} from './field.ts';
export type * from './defs.ts';
