/**
 * @module Stage "build" for events: a collection's derived events (`created`, `updated`, `deleted`, and
 * lifecycle states that transitions lead to) and the API's custom events with their payload fields.
 * Event types are `<singular>.<name>` for derived events and as written for custom ones.
 */
import { describeValue } from '../dsl/arguments.ts';
import { buildField, type FieldContext } from './build-field.ts';
import { refuseFile } from './check-file.ts';
import { fieldEntries } from './check-builders.ts';
import type { BuiltLifecycle } from './build-lifecycle.ts';
import type { CollectionEventIR, CustomEventIR, FieldIR, LifecycleIR, OperationIR, ResourceAction, SourceRef } from './ir.ts';
import { pascalCase, singularize } from './names.ts';
import { checkShape, OPERATION_ENTRY } from './option-shapes.ts';
import { emptyRange } from './project.ts';

/** A custom event's type: dot-separated lower-case words, at least two (`invoice.overdue`). */
export const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** The derived events every collection can have, and the operation that sends each. */
const OPERATION_EVENTS: Readonly<Record<'created' | 'updated' | 'deleted', { readonly needs: readonly string[]; readonly what: string }>> = {
  created: { needs: ['create'], what: 'the create operation' },
  updated: { needs: ['update', 'replace'], what: 'the update or replace operation' },
  deleted: { needs: ['delete'], what: 'the delete operation' },
};

/** What the events of a collection are built from. */
export interface CollectionEventContext extends FieldContext {
  readonly where: string;
  readonly name: string;
  readonly singular?: string;
  readonly ref: SourceRef;
  readonly operations: readonly OperationIR[];
  /** False when an operations entry was at fault (reported): whether an operation is offered is then not judged. */
  readonly operationsComplete: boolean;
  /** The collection's lifecycle as built, when it declares one. */
  readonly lifecycle?: BuiltLifecycle;
}

/** `OrderLine` gives `order_line`: the first part of a derived event type. */
export function eventPrefixOf(name: string, singular: string | undefined): string {
  const type = pascalCase(singular ?? singularize(name));
  return type.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The state names transitions lead to, in the order written. */
const targetStates = (lc: LifecycleIR | undefined): string[] => [...new Set((lc?.transitions ?? []).map((t) => t.to))];

/** The derived events of one collection, each checked (RG350, RG351, RG352, RG359, RG150). */
export function buildCollectionEvents(written: readonly unknown[], ctx: CollectionEventContext): CollectionEventIR[] {
  const d = ctx.diagnostics;
  const out: CollectionEventIR[] = [];
  const prefix = eventPrefixOf(ctx.name, ctx.singular);
  for (const [index, entry] of written.entries()) {
    const loc: SourceRef = { ...ctx.ref, path: ['events', String(index)] };
    const checked =
      typeof entry === 'string'
        ? { name: entry }
        : typeof entry === 'object' && entry !== null && !Array.isArray(entry)
          ? (checkShape(entry, OPERATION_ENTRY, ctx.where, ctx.ref, d, ['events', String(index)]) as
              | { name?: unknown; addedIn?: unknown; removedIn?: unknown }
              | undefined)
          : undefined;
    if (checked === undefined) {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        d.error('RG175', `${ctx.where}: events[${index}] must be an event name or { name, addedIn, removedIn } (got ${describeValue(entry)}).`, loc);
      continue;
    }
    const name = checked.name;
    if (typeof name !== 'string' || name === '') {
      d.error('RG175', `${ctx.where}: events[${index}] needs a name (got ${describeValue(name)}).`, loc);
      continue;
    }
    const action = actionOf(name, ctx, loc);
    if (action === undefined) continue;
    if (out.some((e) => e.name === name)) {
      d.error('RG352', `${ctx.where}: event '${name}' is listed twice; keep one.`, loc);
      continue;
    }
    const known = (v: unknown, member: string): v is string => {
      if (v === undefined) return false;
      if (typeof v === 'string' && ctx.versions.includes(v)) return true;
      d.error('RG150', `${ctx.where}: event '${name}' ${member} '${String(v)}' names an unknown version; the API declares ${ctx.versions.join(', ')}.`, loc);
      return false;
    };
    const addedIn = known(checked.addedIn, 'addedIn') ? checked.addedIn : undefined;
    const removedIn = known(checked.removedIn, 'removedIn') ? checked.removedIn : undefined;
    // An event sent in no version says nothing: a mistake in its versions.
    const empty = emptyRange(ctx.versions, addedIn, removedIn);
    if (empty) d.error(empty.code, `${ctx.where}: event '${name}' ${empty.text}.`, loc);
    out.push({
      kind: 'collection-event',
      name,
      action,
      type: `${prefix}.${name}`,
      ...(addedIn !== undefined ? { addedIn } : {}),
      ...(removedIn !== undefined ? { removedIn } : {}),
      loc,
    });
  }
  return out;
}

/** What `name` means for the collection, or undefined when it means nothing (reported here, or a mistake reported elsewhere hides it). */
function actionOf(name: string, ctx: CollectionEventContext, loc: SourceRef): ResourceAction | undefined {
  const d = ctx.diagnostics;
  if (name === 'created' || name === 'updated' || name === 'deleted') {
    const rule = OPERATION_EVENTS[name];
    // A misspelt operations entry was reported; it may well be the operation this event needs.
    if (!ctx.operationsComplete) return undefined;
    if (!ctx.operations.some((op) => rule.needs.includes(op.name))) {
      d.error(
        'RG359',
        `${ctx.where}: event '${name}' is sent by ${rule.what}, which the collection does not offer; add it to operations or remove the event.`,
        loc,
      );
      return undefined;
    }
    if (name === 'deleted' && !ctx.operations.some((op) => op.name === 'get')) {
      d.error(
        'RG359',
        `${ctx.where}: event 'deleted' carries the resource as it was, which the server loads with the get operation; add 'get' to operations.`,
        loc,
      );
      return undefined;
    }
    return name;
  }
  const lifecycle = ctx.lifecycle;
  const targets = targetStates(lifecycle?.ir);
  if (targets.includes(name)) return lifecycle?.complete ? 'transition' : undefined;
  if (lifecycle && !lifecycle.complete) {
    // The lifecycle holds a mistake (reported), so it may lack the transition this event is named after: only a
    // name that is no state at all is a mistake of the event's own.
    if (!lifecycle.states || lifecycle.states.includes(name)) return undefined;
    d.error(
      'RG351',
      `${ctx.where}: event '${name}' names no state of the lifecycle; a transition event is named after the state it enters (one of ${lifecycle.states.join(', ')}), or use created, updated or deleted.`,
      loc,
    );
    return undefined;
  }
  const states = lifecycle?.ir?.transitions.length ? targets.join(', ') : '';
  if (states === '')
    d.error(
      'RG350',
      `${ctx.where}: event '${name}' is neither created, updated nor deleted, and the collection has no lifecycle whose transitions it could name; use one of those three.`,
      loc,
    );
  else
    d.error(
      'RG351',
      `${ctx.where}: event '${name}' names no state a transition leads to; a transition event is named after the state it enters (${states}), or use created, updated or deleted.`,
      loc,
    );
  return undefined;
}

/** A custom event after its shape was checked. */
interface CheckedCustomEvent {
  readonly payload?: Readonly<Record<string, unknown>>;
  readonly description?: string;
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** Modifiers that mean nothing in a payload (it is only ever sent by the server, never stored as such). */
const POINTLESS: readonly (readonly [keyof FieldIR & ('readOnly' | 'writeOnly' | 'unique' | 'filterable' | 'sortable' | 'expandable'), string])[] = [
  ['readOnly', 'a payload is only ever sent by the server'],
  ['writeOnly', 'a payload is never received'],
  ['unique', 'payloads are not stored, so nothing is unique among them'],
  ['filterable', 'payloads are not listed'],
  ['sortable', 'payloads are not listed'],
  ['expandable', 'a payload shows the resource as stored, never expanded'],
];

/** Rules of one payload field that need no other part of the API (RG355, RG356). */
function checkPayloadField(f: FieldIR, where: string, ctx: FieldContext): void {
  const d = ctx.diagnostics;
  for (const [member, why] of POINTLESS)
    if (f[member]) d.error('RG355', `${where}: .${member}() means nothing in an event payload (${why}); remove it.`, f.calls[member] ?? f.loc);
  if (f.type.kind === 'id') d.error('RG355', `${where}: f.id() names a collection's own id; in a payload use f.ref('collection') or f.uuid().`, f.loc);
  for (const t of f.typeChanges)
    d.error(
      'RG356',
      `${where}: typeChangedFrom('${t.version}') is not supported in an event payload (the server has no hook to convert it for older subscribers); add a field with a new name in ${t.version} and remove the old one there.`,
      t.loc,
    );
  for (const o of f.optionality)
    d.error(
      'RG356',
      `${where}: ${o.to === 'optional' ? 'madeOptionalIn' : 'madeRequiredIn'}('${o.version}') is not supported in an event payload; older subscribers would receive a value their version does not allow. Add a new field instead.`,
      o.loc,
    );
}

/** The API's custom events, each checked (RG353, RG352, RG355, RG356, RG150). `taken`: the derived event types. */
export function buildCustomEvents(
  written: Readonly<Record<string, CheckedCustomEvent | undefined>>,
  taken: readonly string[],
  ctx: FieldContext,
  apiRef: SourceRef,
): CustomEventIR[] {
  const d = ctx.diagnostics;
  const out: CustomEventIR[] = [];
  for (const [type, e] of Object.entries(written)) {
    if (!e) continue;
    const loc: SourceRef = { ...apiRef, path: ['events', type] };
    if (!EVENT_TYPE.test(type)) {
      d.error('RG353', `events: '${type}' is not a valid event type; use lower-case words separated by dots, like 'invoice.overdue'.`, loc);
      continue;
    }
    if (taken.includes(type)) {
      d.error('RG352', `events: '${type}' is also a collection's derived event; give the custom event another type.`, loc);
      continue;
    }
    const fctx: FieldContext = { ...ctx, fallback: loc };
    const where = `event ${type}`;
    const payload = fieldEntries(e.payload ?? {}, where, apiRef, d, ['events', type, 'payload']).map(([name, def]) =>
      buildField(name, def, `${where}.${name}`, fctx, 'elsewhere'),
    );
    for (const f of payload) {
      checkPayloadField(f, `${where}.${f.name}`, fctx);
      refuseFile(f, `${where}.${f.name}`, "an event's payload", loc, d);
    }
    const known = (v: string | undefined, member: 'addedIn' | 'removedIn'): v is string => {
      if (v === undefined) return false;
      if (ctx.versions.includes(v)) return true;
      d.error('RG150', `${where}: ${member} '${v}' names an unknown version; the API declares ${ctx.versions.join(', ')}.`, {
        ...loc,
        path: [...loc.path!, member],
      });
      return false;
    };
    out.push({
      kind: 'custom-event',
      type,
      payload,
      ...(e.description !== undefined ? { description: e.description } : {}),
      ...(known(e.addedIn, 'addedIn') ? { addedIn: e.addedIn } : {}),
      ...(known(e.removedIn, 'removedIn') ? { removedIn: e.removedIn } : {}),
      loc,
    });
  }
  return out;
}
