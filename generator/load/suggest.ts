/**
 * @module The names a module that fails to load most likely meant: the field builders (`f.string`), the modifiers of
 * builders (`.min`, `.readOnly`, `.addedIn`) and restgen's exports (`collection`). The lists are checked against the
 * DSL's types, so a builder or modifier added there is a compile error here until it is listed.
 */
import type { CollectionBuilder } from '../dsl/collection.ts';
import type { ArrayField, EnumField, FieldBuilders, RefField, StringField } from '../dsl/field.ts';
import { closest } from '../model/option-shapes.ts';

/** Every member of a field builder and of a collection builder a user calls in a chain. */
type Modifier = Exclude<keyof StringField | keyof EnumField<string> | keyof ArrayField<unknown> | keyof RefField | keyof CollectionBuilder, 'def' | '__value'>;

const BUILDER_SET = {
  string: 0,
  int: 0,
  number: 0,
  boolean: 0,
  enum: 0,
  datetime: 0,
  date: 0,
  uuid: 0,
  email: 0,
  url: 0,
  id: 0,
  ref: 0,
  array: 0,
  object: 0,
  file: 0,
} as const satisfies Record<keyof FieldBuilders, 0>;

const MODIFIER_SET = {
  optional: 0,
  nullable: 0,
  default: 0,
  readOnly: 0,
  writeOnly: 0,
  unique: 0,
  description: 0,
  example: 0,
  deprecated: 0,
  filterable: 0,
  sortable: 0,
  expandable: 0,
  addedIn: 0,
  removedIn: 0,
  renamedFrom: 0,
  typeChangedFrom: 0,
  madeOptionalIn: 0,
  madeRequiredIn: 0,
  min: 0,
  max: 0,
  pattern: 0,
  valueAddedIn: 0,
} as const satisfies Record<Modifier, 0>;

/** The field builders of `f`, in the order the DSL lists them. */
export const BUILDERS: readonly string[] = Object.keys(BUILDER_SET);
/** The modifiers of builders (and the markers of a collection). */
export const MODIFIERS: readonly string[] = Object.keys(MODIFIER_SET);
/** What `restgen` exports to an API module or a config file. */
export const EXPORTS: readonly string[] = ['defineApi', 'collection', 'f', 'defineConfig'];

/** What the thing called is, as far as the source tells: a member of `f`, a member of a builder chain, or other. */
export type CalleeKind = { readonly kind: 'builder'; readonly via: string } | { readonly kind: 'modifier' } | { readonly kind: 'other' };

/** `did you mean \`f.string()\`?` for a member that is not a function, or undefined when nothing is close. */
export function suggestMember(name: string, callee: CalleeKind): string | undefined {
  if (callee.kind === 'builder') {
    const guess = closest(name, BUILDERS);
    return guess && `did you mean \`${callee.via}.${guess}()\`?`;
  }
  if (callee.kind === 'modifier') {
    const guess = closest(name, MODIFIERS);
    return guess && `did you mean \`.${guess}()\`?`;
  }
  return undefined;
}

/** For a name that is not defined: import it when restgen exports it, or the export it most likely meant. */
export function suggestGlobal(name: string): string | undefined {
  if (EXPORTS.includes(name)) return `import it: import { ${name} } from 'restgen'`;
  const guess = closest(name, EXPORTS);
  return guess && `did you mean \`${guess}\`?`;
}

/** For an import of a name the module does not export: the export it most likely meant. */
export function suggestExport(name: string, exported: readonly string[]): string | undefined {
  const guess = closest(
    name,
    exported.filter((n) => n !== 'default'),
  );
  return guess && `did you mean '${guess}'?`;
}
