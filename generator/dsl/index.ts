/**
 * @module The DSL a user's `api.ts` imports: `import { defineApi, collection, f } from 'restgen'`.
 */
export { defineApi, type ApiOptions } from './define-api.ts';
export { collection, type CollectionBuilder } from './collection.ts';
export {
  f,
  type AnyField,
  type ArrayField,
  type BooleanField,
  type EnumField,
  type FieldModifiers,
  type FormatField,
  type NumberField,
  type ObjectField,
  type StringField,
  type ValueOf,
} from './field.ts';
export type * from './defs.ts';
