/**
 * @module Compares two value types of one field: kind (incompatible, widened, narrowed, format, enum),
 * bounds, patterns and enum values. Nested objects are handed back to the field differ through
 * `onObject`, so the recursion lives in one place.
 */
import type { FieldAt, SourceRef, TypeIR, TypeKind } from '../model/ir.ts';
import { KINDS, type Bounds } from '../model/kinds.ts';
import type { Change } from './types.ts';
import type { FindingCollector, Touches } from './collector.ts';
import { hintEnumRename } from './rename-hints.ts';
import { describeType, formatOf } from './type-names.ts';
import { nameSimilarity, pairBest } from './similarity.ts';

type T = TypeIR<FieldAt>;

/** What comparing a type needs: where to report, and how to compare nested objects. */
export interface TypeComparison {
  readonly out: FindingCollector;
  /** Where the change was made: the `typeChangedFrom` marker, else the edited modifier (`max`), else the field. */
  readonly loc: (modifier?: string) => SourceRef | undefined;
  /** The version marker hints name; null when no declared version can carry one. */
  readonly markerVersion: string | null;
  /** Compares the fields of two nested objects at `path` (`orders.shipping`, `orders.lines[]`). */
  readonly onObject: (before: readonly FieldAt[], after: readonly FieldAt[], path: string) => void;
  /** The rules of enum values added and removed: a lifecycle's state field reports states instead. */
  readonly enumRules?: { readonly added: 'state-added'; readonly removed: 'state-removed' };
}

/** Names of the two bounds of a kind: for messages, and as the `aspect` of the change (`maxLength`). */
const BOUND_UNITS: { readonly [B in Bounds]: [[string, string], [string, string]] } = {
  length: [
    ['min length', 'minLength'],
    ['max length', 'maxLength'],
  ],
  items: [
    ['min items', 'minItems'],
    ['max items', 'maxItems'],
  ],
  value: [
    ['minimum', 'minimum'],
    ['maximum', 'maximum'],
  ],
};

/**
 * Besides the request verdict of a narrowing (a bound tightened or set, a pattern added or changed, an enum
 * value removed), a field that is stored and answered holds values written under the old contract: they
 * may not satisfy the new one (the generated server still answers them, logged). Reported on the routes
 * that answer the resource; an event's payload or a transition's input is not stored, and is not reported.
 */
function reportStored(ctx: TypeComparison, path: string, touches: Touches, what: string, loc: SourceRef | undefined, change: Change): void {
  const stored = touches.response.filter((t) => !t.op.startsWith('@'));
  ctx.out.add(
    'existing-data-may-not-satisfy',
    path,
    `${path}: existing data may not satisfy this (${what}): records written before keep their values, which are still answered`,
    { request: [], response: stored },
    loc,
    change,
  );
}

function compareBounds(
  ctx: TypeComparison,
  path: string,
  touches: Touches,
  kind: TypeKind,
  b: { min?: number; max?: number },
  a: { min?: number; max?: number },
): void {
  const bounds = KINDS[kind].bounds;
  if (bounds === null) return;
  const [minName, maxName] = BOUND_UNITS[bounds];
  const report = ([name, aspect]: [string, string], member: string, before: number | undefined, after: number | undefined, tighter: boolean) => {
    if (before === after) return;
    const change = { aspect, before, after };
    const loc = ctx.loc(member);
    if (before === undefined) ctx.out.add('bound-added', path, `${path}: ${name} ${after} set where there was none`, touches, loc, change);
    else if (after === undefined) ctx.out.add('bound-loosened', path, `${path}: ${name} ${before} removed`, touches, loc, change);
    else ctx.out.add(tighter ? 'bound-tightened' : 'bound-loosened', path, `${path}: ${name} ${before} → ${after}`, touches, loc, change);
    if (after !== undefined && (before === undefined || tighter)) reportStored(ctx, path, touches, `${name} ${before ?? 'none'} → ${after}`, loc, change);
  };
  if (b.min !== a.min) report(minName, 'min', b.min, a.min, (a.min ?? -Infinity) > (b.min ?? -Infinity));
  if (b.max !== a.max) report(maxName, 'max', b.max, a.max, (a.max ?? Infinity) < (b.max ?? Infinity));
}

/** Enum values removed and added at once: pairs alike ones as possible renames (one of each is a likely pair). */
function hintEnumRenames(
  ctx: TypeComparison,
  path: string,
  touches: Touches,
  before: readonly string[],
  removed: readonly string[],
  added: readonly string[],
): void {
  const single = removed.length === 1 && added.length === 1;
  const pairs = pairBest(removed, added, (r, a) => {
    const similar = nameSimilarity(r, a);
    return single || similar >= 0.5 ? similar : undefined;
  });
  for (const p of pairs) {
    const [r, a] = [removed[p.left]!, added[p.right]!];
    const { message, hint } = hintEnumRename(path, r, a, before, p.score >= 0.5 ? 'high' : 'low', ctx.markerVersion);
    ctx.out.add('possible-enum-value-rename', path, message, touches, ctx.loc('enum'), { aspect: 'enumValue', before: r, after: a }, hint);
  }
}

/** Compares the types of one field (or array item) at `path`, reporting into `ctx.out`. */
export function compareTypes(ctx: TypeComparison, b: T, a: T, path: string, touches: Touches): void {
  if (b.kind !== a.kind) return compareKinds(ctx, b, a, path, touches);
  switch (b.kind) {
    case 'string': {
      const after = a as typeof b;
      compareBounds(ctx, path, touches, b.kind, b, after);
      if (b.pattern !== after.pattern) {
        const change = { aspect: 'pattern', before: b.pattern, after: after.pattern };
        const loc = ctx.loc('pattern');
        if (b.pattern === undefined) ctx.out.add('pattern-added', path, `${path}: pattern /${after.pattern}/ added`, touches, loc, change);
        else if (after.pattern === undefined) ctx.out.add('pattern-removed', path, `${path}: pattern /${b.pattern}/ removed`, touches, loc, change);
        else ctx.out.add('pattern-changed', path, `${path}: pattern /${b.pattern}/ → /${after.pattern}/`, touches, loc, change);
        if (after.pattern !== undefined) reportStored(ctx, path, touches, `pattern /${after.pattern}/`, loc, change);
      }
      return;
    }
    case 'enum': {
      const after = (a as typeof b).values;
      const added = after.filter((v) => !b.values.includes(v));
      const removed = b.values.filter((v) => !after.includes(v));
      const list = (vs: readonly string[]) => vs.map((v) => `'${v}'`).join(', ');
      // Sorted values: the lock keeps enum values sorted, and a fingerprint must not depend on the order written.
      const values = (vs: readonly string[]) => [...vs].sort();
      const loc = ctx.loc('enum');
      const [rules, what] = ctx.enumRules ? [ctx.enumRules, 'state'] : [{ added: 'enum-value-added', removed: 'enum-value-removed' } as const, 'enum value'];
      const plural = (n: number) => (n > 1 ? 's' : '');
      if (added.length)
        ctx.out.add(rules.added, path, `${path}: ${what}${plural(added.length)} ${list(added)} added`, touches, loc, {
          aspect: 'enumValues',
          after: values(added),
        });
      if (removed.length) {
        const change = { aspect: 'enumValues', before: values(removed) };
        ctx.out.add(rules.removed, path, `${path}: ${what}${plural(removed.length)} ${list(removed)} removed`, touches, loc, change);
        reportStored(ctx, path, touches, `${what}${plural(removed.length)} ${list(removed)} removed`, loc, change);
      }
      if (added.length && removed.length) hintEnumRenames(ctx, path, touches, b.values, removed, added);
      return;
    }
    case 'ref': {
      const after = a as typeof b;
      if (b.collection !== after.collection)
        ctx.out.add('field-format-changed', path, `${path} now refers to ${after.collection} instead of ${b.collection}`, touches, ctx.loc('ref'), {
          aspect: 'ref',
          before: b.collection,
          after: after.collection,
        });
      return;
    }
    case 'array': {
      const after = a as typeof b;
      compareBounds(ctx, path, touches, b.kind, b, after);
      const [nb, na] = [b.itemsNullable === true, after.itemsNullable === true];
      if (nb !== na)
        ctx.out.add(
          na ? 'field-became-nullable' : 'field-became-non-nullable',
          `${path}[]`,
          `${path}[]: items ${na ? 'may now be null' : 'may no longer be null'}`,
          touches,
          ctx.loc('array'),
          { aspect: 'nullable', before: nb, after: na },
        );
      return compareTypes(ctx, b.of, after.of, `${path}[]`, touches);
    }
    case 'object':
      return ctx.onObject(b.fields, (a as typeof b).fields, path);
    default:
      // Every other kind: its bounds, as the kinds table reads them (a kind without bounds has nothing to compare).
      return compareBounds(ctx, path, touches, b.kind, b as { min?: number; max?: number }, a as { min?: number; max?: number });
  }
}

function compareKinds(ctx: TypeComparison, b: T, a: T, path: string, touches: Touches): void {
  const message = `${path}: ${describeType(b)} → ${describeType(a)}`;
  const change = { aspect: 'type', before: describeType(b), after: describeType(a) };
  const loc = ctx.loc();
  if (b.kind === 'int' && a.kind === 'number') return ctx.out.add('field-type-widened', path, message, touches, loc, change);
  if (b.kind === 'number' && a.kind === 'int') return ctx.out.add('field-type-narrowed', path, message, touches, loc, change);
  const fb = formatOf(b.kind);
  const fa = formatOf(a.kind);
  if (a.kind === 'enum' && fb !== undefined) return ctx.out.add('field-became-enum', path, message, touches, loc, change);
  if (b.kind === 'enum' && fa !== undefined) return ctx.out.add('field-no-longer-enum', path, message, touches, loc, change);
  if (fb !== undefined && fa !== undefined) {
    // id, uuid and ref are all uuids on the wire: switching between them changes nothing a client sees.
    if (fb !== fa) ctx.out.add('field-format-changed', path, message, touches, loc, change);
    return;
  }
  ctx.out.add('field-type-changed', path, message, touches, loc, change);
}
