/**
 * @module The run-time mirror of the DSL's builder types: builders that were not called, other values
 * where a field or a collection belongs, arguments of the wrong kind or number (the slips the builders
 * recorded), and modifiers a field's kind does not have (`f.int().pattern(...)`). Each is a diagnostic
 * at the call, never a crash and never silently dropped.
 */
import { describeValue, isFieldBuilder, KINDS as KIND_NAMES } from '../dsl/arguments.ts';
import { FIELD_KINDS, type ArgumentSlip, type CollectionDef, type FieldDef, type FieldKind } from '../dsl/defs.ts';
import { KINDS } from './kinds.ts';
import { atPath, refOf, type DiagnosticBag, type DiagnosticCode } from './diagnostics.ts';
import type { SourceRef } from './ir.ts';

const SLIP_CODES: { readonly [P in ArgumentSlip['problem']]: DiagnosticCode } = {
  'not-called': 'RG170',
  'not-a-field': 'RG172',
  'wrong-kind': 'RG173',
  'extra-arguments': 'RG177',
};

const SLIP_MESSAGES: { readonly [P in ArgumentSlip['problem']]: (s: ArgumentSlip) => string } = {
  'not-called': (s) => `${s.member}() was given ${s.got} without calling it; write ${s.expected}.`,
  'not-a-field': (s) => `${s.member}() was given ${s.got} where a field belongs; use ${s.expected}.`,
  'wrong-kind': (s) => `${s.member}() takes ${s.expected}, not ${s.got}.`,
  'extra-arguments': (s) => `${s.member}() takes ${s.expected} (got ${s.got}); remove the extra arguments.`,
};

/** Reports the slips a builder recorded, each at its call (and the property inside it, when there is one). */
export function reportSlips(slips: readonly ArgumentSlip[] | undefined, where: string, fallback: SourceRef, d: DiagnosticBag): void {
  for (const slip of slips ?? []) {
    const subject = slip.path ? `${where}.${slip.path.join('.')}` : where;
    d.error(SLIP_CODES[slip.problem], `${subject}: ${SLIP_MESSAGES[slip.problem](slip)}`, refOf(slip.site, fallback, slip.path));
  }
}

/** The modifiers that only some kinds of field have (every kind has the others). */
const kindsWith = (has: (facts: (typeof KINDS)[FieldKind]) => boolean): readonly FieldKind[] => FIELD_KINDS.filter((k) => has(KINDS[k]));
const KIND_MEMBERS: { readonly [M in 'min' | 'max' | 'pattern' | 'valueAddedIn']: readonly FieldKind[] } = {
  min: kindsWith((k) => k.bounds !== null),
  max: kindsWith((k) => k.bounds !== null),
  pattern: kindsWith((k) => k.pattern),
  valueAddedIn: kindsWith((k) => k.versionedValues),
};
/** {@link KIND_MEMBERS} as entries, listed once: every field of an API is checked against them. */
const KIND_MEMBER_ENTRIES = Object.entries(KIND_MEMBERS) as [keyof typeof KIND_MEMBERS, readonly FieldKind[]][];

/** How a message names a builder. */
const builderOf = (kind: FieldKind): string => `f.${kind}()`;

/**
 * Reports modifiers the field's kind does not have (their types reject them) and returns the names of
 * those that it does have, so the bounds checks only look at meaningful ones.
 */
export function checkKindMembers(def: FieldDef, where: string, fallback: SourceRef, d: DiagnosticBag): ReadonlySet<string> {
  const allowed = new Set<string>();
  for (const [member, kinds] of KIND_MEMBER_ENTRIES) {
    if (!(member in def.calls)) continue;
    if (kinds.includes(def.kind)) allowed.add(member);
    else
      d.error(
        'RG174',
        `${where}: .${member}() does not apply to ${builderOf(def.kind)}; only ${kinds.map(builderOf).join(', ')} ha${kinds.length === 1 ? 's' : 've'} it. Remove it.`,
        refOf(def.calls[member], fallback),
      );
  }
  return allowed;
}

/** The field builders among `fields` (by name); every other value is reported at its property. */
export function fieldEntries(
  fields: Readonly<Record<string, unknown>>,
  where: string,
  ref: SourceRef,
  d: DiagnosticBag,
  path: readonly string[],
): [string, FieldDef][] {
  const good: [string, FieldDef][] = [];
  for (const [name, value] of Object.entries(fields)) {
    const at = atPath(ref, [...path, name]);
    if (isFieldBuilder(value)) good.push([name, value.def]);
    else if (typeof value === 'function') {
      // `f.string` names a builder; `f.string().readOnly` a modifier, which is called on the chain it ends.
      const fix = KIND_NAMES.has(value.name) || !value.name ? `f.${value.name || 'string'}()` : `.${value.name}() at the end of the chain`;
      d.error('RG170', `${where}.${name}: ${describeValue(value)} is a builder that was not called; write ${fix}.`, at);
    } else d.error('RG172', `${where}.${name}: ${describeValue(value)} is not a field; use a field builder such as f.string() or f.int().min(1).`, at);
  }
  return good;
}

function isCollectionDef(value: unknown): value is CollectionDef {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'collection' && 'markers' in value;
}

/** The collections among `collections` (by name); every other value is reported at its property. */
export function collectionEntries(collections: Readonly<Record<string, unknown>>, ref: SourceRef, d: DiagnosticBag): [string, CollectionDef][] {
  const good: [string, CollectionDef][] = [];
  for (const [name, value] of Object.entries(collections)) {
    const at = atPath(ref, ['collections', name]);
    if (isCollectionDef(value)) good.push([name, value]);
    else if (typeof value === 'function')
      d.error('RG170', `collections.${name}: ${describeValue(value)} was not called; write ${value.name || 'collection'}({ fields: {...} }).`, at);
    else
      d.error(
        'RG171',
        `collections.${name}: ${describeValue(value)} is not a collection; wrap its options in collection({...}), e.g. ${name}: collection({ fields: { id: f.id() } }).`,
        at,
      );
  }
  return good;
}
