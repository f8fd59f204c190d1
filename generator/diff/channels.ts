/**
 * @module Where a field flows, per channel, as the routes that carry it: read from the operations table
 * (`OPERATION_FACTS`: which operations take a body, which take the list query, which answer the resource), so
 * the diff engine judges an operation by the same facts the routes, the OpenAPI documents and the runtime use.
 */
import { OPERATION_FACTS, type CollectionAt, type FieldAt } from '../model/ir.ts';
import { downloadOp, transitionOp, type RouteOp } from './collector.ts';

/**
 * The operations in which a field flows, per channel: `body` (create/replace/update bodies), `required`
 * (bodies where a required field must be sent: create and replace; for nested fields every body),
 * `query` (list filters) and `response` (every operation that answers the resource).
 */
export interface Channels {
  readonly body: readonly RouteOp[];
  readonly required: readonly RouteOp[];
  readonly query: readonly RouteOp[];
  readonly response: readonly RouteOp[];
}

/** The routes of `ops` that are also in `allowed`. */
export const only = (ops: readonly RouteOp[], allowed: readonly RouteOp[]): RouteOp[] => ops.filter((op) => allowed.includes(op));

/** The downloads of a collection's file fields (served where it offers get). */
const downloadsOf = (c: CollectionAt): RouteOp[] =>
  c.operations.includes('get') ? c.fields.filter((f) => f.type.kind === 'file').map((f) => downloadOp(f.name)) : [];

/** The operations, transitions and downloads a collection offers. */
export const routeOpsOf = (c: CollectionAt): RouteOp[] => [
  ...c.operations,
  ...(c.lifecycle?.transitions ?? []).map((t) => transitionOp(t.name)),
  ...downloadsOf(c),
];

/** The channels of a collection's top-level fields. */
export function collectionChannels(c: CollectionAt): Channels {
  const facts = c.operations.map((op) => [op, OPERATION_FACTS[op]] as const);
  const where = (test: (f: (typeof OPERATION_FACTS)[keyof typeof OPERATION_FACTS]) => boolean): RouteOp[] => facts.filter(([, f]) => test(f)).map(([op]) => op);
  return {
    body: where((f) => f.body !== null),
    // A PATCH body leaves out what it keeps: only create and replace bodies must carry a required field.
    required: where((f) => f.body === 'create' || f.body === 'replace'),
    query: where((f) => f.query),
    // Every operation but a 204 answers the resource, and so does every transition.
    response: [...where((f) => f.status !== 204), ...(c.lifecycle?.transitions ?? []).map((t) => transitionOp(t.name))],
  };
}

/** The channels of field `f` under its parent's (`top`: a collection's own field, which alone may be a filter). */
export function channelsOf(f: FieldAt, parent: Channels, top: boolean): Channels {
  return {
    body: f.readOnly ? [] : parent.body,
    required: f.readOnly ? [] : parent.required,
    query: top && f.filterable ? parent.query : [],
    // A file is also answered by its download.
    response: f.writeOnly ? [] : top && f.type.kind === 'file' ? [...parent.response, downloadOp(f.name)] : parent.response,
  };
}

/** The channels of the fields of a nested object: every body requires its required fields. */
export function nestedChannels(ch: Channels): Channels {
  return { body: ch.body, required: ch.body, query: [], response: ch.response };
}

/** The channels two sides share. */
export function common(a: Channels, b: Channels): Channels {
  return { body: only(a.body, b.body), required: only(a.required, b.required), query: only(a.query, b.query), response: only(a.response, b.response) };
}

/** Required in responses: present unless optional without a default (the server fills defaults). */
export const responseRequired = (f: FieldAt): boolean => !f.optional || f.default !== undefined;
