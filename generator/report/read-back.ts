/**
 * @module What clients of older versions read back after a change made with a fallback, said beside the change in
 * CHANGES.md and UPGRADING.md. Handlers store the newest shape, so:
 * - a field removed with `removedIn(v, { fallback })` reads back as the fallback in every version before `v`: what
 *   such a client sends is not stored;
 * - a field made required with `madeRequiredIn(v, { fallback })` is stored as the fallback when a create or replace of
 *   a version before `v` leaves it out, and that client reads the fallback back, not an absent field.
 */
import { stableJson } from '../diff/collector.ts';
import type { DiffReport, Finding } from '../diff/types.ts';
import type { ApiAt, ApiIR, FieldAt, FieldIR, TypeIR } from '../model/ir.ts';

/** The object fields of a type, through arrays; undefined when it holds no object. */
function objectFields<F>(type: TypeIR<F>): readonly F[] | undefined {
  let t = type;
  while (t.kind === 'array') t = t.of;
  return t.kind === 'object' ? t.fields : undefined;
}

/** The fields along a finding's location in a version (`orders.lines[].sku`: lines, then sku), or undefined. */
function pathAt(at: ApiAt, location: string): FieldAt[] | undefined {
  const [head, ...names] = location.split('.');
  let fields = at.collections.find((c) => c.name === head)?.fields;
  const path: FieldAt[] = [];
  for (const name of names) {
    const field = fields?.find((f) => f.name === name.replace(/\[\]$/, ''));
    if (field === undefined) return undefined;
    path.push(field);
    fields = objectFields(field.type);
  }
  return path.length > 0 ? path : undefined;
}

/**
 * What the notes read of an API besides the two versions compared, as plain data (a renderer's input): its versions'
 * names, oldest first, and the fallbacks of fields made required (a removed field's fallback is in the older version's
 * projection; a made-required field's is only in the IR). Each fallback names its collection and the field's path by
 * IR names (`lines.sku`), which projected fields keep as their `key`.
 */
export interface ReadBackFacts {
  readonly versions: readonly string[];
  readonly madeRequired: readonly { readonly collection: string; readonly path: string; readonly version: string; readonly value: unknown }[];
}

/** The {@link ReadBackFacts} of `api`. */
export function readBackFacts(api: ApiIR): ReadBackFacts {
  const madeRequired: ReadBackFacts['madeRequired'][number][] = [];
  const walk = (collection: string, fields: readonly FieldIR[], path: string): void => {
    for (const f of fields) {
      for (const o of f.optionality)
        if (o.to === 'required' && o.fallback) madeRequired.push({ collection, path: `${path}${f.name}`, version: o.version, value: o.fallback.value });
      const inner = objectFields(f.type);
      if (inner) walk(collection, inner, `${path}${f.name}.`);
    }
  };
  for (const c of api.collections) walk(c.name, c.fields, '');
  return { versions: api.versions.map((v) => v.name), madeRequired };
}

/** "Clients of v1", or "Clients of v2 and older versions" when there are older ones. */
function clientsOf(facts: ReadBackFacts, version: string): string {
  return facts.versions.indexOf(version) > 0 ? `Clients of ${version} and older versions` : `Clients of ${version}`;
}

/**
 * The clause on what clients of `before`'s version read back after `f`, a change between the versions `before` and
 * `after` (projections of one API, whose {@link ReadBackFacts} are `facts`); no final period. Undefined when the change
 * has no fallback.
 */
export function readBackNote(before: ApiAt, after: ApiAt, facts: ReadBackFacts, f: Finding): string | undefined {
  const [from, to] = [before.version.name, after.version.name];
  const rule = f.id.replace(/^(request|response)-/, '');
  const head = f.location.split('.')[0]!;
  if (rule === 'required-field-removed' || rule === 'optional-field-removed') {
    const removed = pathAt(before, f.location)?.at(-1)?.removedIn;
    if (removed?.version !== to || removed.fallback === undefined) return undefined;
    return `${clientsOf(facts, from)} read it back as ${stableJson(removed.fallback.value)}, its fallback: the newest version does not store it, so a value they send is not kept`;
  }
  if (rule === 'field-became-required') {
    const keys = pathAt(after, f.location)
      ?.map((step) => step.key)
      .join('.');
    const made = keys !== undefined && facts.madeRequired.find((m) => m.collection === head && m.path === keys && m.version === to);
    if (!made) return undefined;
    return `${clientsOf(facts, from)} that leave it out of a create or replace read it back as ${stableJson(made.value)}, its fallback, which is stored for them`;
  }
  return undefined;
}

/** `report` (between the versions `before` and `after`) with each change made with a fallback saying what older clients read back. */
export function withReadBack(before: ApiAt, after: ApiAt, facts: ReadBackFacts, report: DiffReport): DiffReport {
  const findings = report.findings.map((f) => {
    const note = readBackNote(before, after, facts, f);
    return note === undefined ? f : { ...f, message: `${f.message}. ${note}` };
  });
  return { ...report, findings };
}
