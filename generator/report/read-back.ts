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
import { project } from '../model/project.ts';

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

/** The IR field the projected `path` leads to (projected fields keep the IR's key). */
function fieldIR(api: ApiIR, collection: string, path: readonly FieldAt[]): FieldIR | undefined {
  let fields: readonly FieldIR[] | undefined = api.collections.find((c) => c.name === collection)?.fields;
  let found: FieldIR | undefined;
  for (const step of path) {
    found = fields?.find((f) => f.name === step.key);
    if (found === undefined) return undefined;
    fields = objectFields(found.type);
  }
  return found;
}

/** "Clients of v1", or "Clients of v2 and older versions" when there are older ones. */
function clientsOf(api: ApiIR, version: string): string {
  return api.versions.findIndex((v) => v.name === version) > 0 ? `Clients of ${version} and older versions` : `Clients of ${version}`;
}

/** The clause on what clients of `from` read back after `f` (no final period), or undefined when the change has no fallback. */
export function readBackNote(api: ApiIR, from: string, to: string, f: Finding): string | undefined {
  const rule = f.id.replace(/^(request|response)-/, '');
  const head = f.location.split('.')[0]!;
  if (rule === 'required-field-removed' || rule === 'optional-field-removed') {
    const removed = pathAt(project(api, from), f.location)?.at(-1)?.removedIn;
    if (removed?.version !== to || removed.fallback === undefined) return undefined;
    return `${clientsOf(api, from)} read it back as ${stableJson(removed.fallback.value)}, its fallback: the newest version does not store it, so a value they send is not kept`;
  }
  if (rule === 'field-became-required') {
    const path = pathAt(project(api, to), f.location);
    const made = path && fieldIR(api, head, path)?.optionality.find((o) => o.version === to && o.to === 'required');
    if (made?.fallback === undefined) return undefined;
    return `${clientsOf(api, from)} that leave it out of a create or replace read it back as ${stableJson(made.fallback.value)}, its fallback, which is stored for them`;
  }
  return undefined;
}

/** `report` (between two versions of `api`) with each change made with a fallback saying what older clients read back. */
export function withReadBack(api: ApiIR, report: DiffReport): DiffReport {
  const findings = report.findings.map((f) => {
    const note = readBackNote(api, report.from, report.to, f);
    return note === undefined ? f : { ...f, message: `${f.message}. ${note}` };
  });
  return { ...report, findings };
}

/**
 * What the notes of `api` depend on beyond the versions' projections (a removed field's fallback is in the older
 * projection; a made-required field's is only in the IR): the fallbacks of fields made required, for cache keys.
 */
export function madeRequiredFallbacks(api: ApiIR): readonly unknown[] {
  const out: unknown[] = [];
  const walk = (collection: string, fields: readonly FieldIR[], path: string): void => {
    for (const f of fields) {
      for (const o of f.optionality) if (o.fallback) out.push([collection, `${path}${f.name}`, o.version, o.fallback.value]);
      const inner = objectFields(f.type);
      if (inner) walk(collection, inner, `${path}${f.name}.`);
    }
  };
  for (const c of api.collections) walk(c.name, c.fields, '');
  return out;
}
