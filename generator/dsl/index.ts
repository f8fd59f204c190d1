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
  type EnumField,
  type FieldBuilders,
  type FieldModifiers,
  type FileField,
  type FileOptions,
  type FileValue,
  type FormatField,
  type NumberField,
  type ObjectField,
  type StringField,
  type ValueOf,
} from './field.ts';
export type * from './defs.ts';
