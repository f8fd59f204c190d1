/**
 * @module What the list-query checks share: the run's own plain reference of how values of a field compare (the
 * order a sort and the ordered operators must follow), a value as a query parameter carries it, the order a walk
 * must have, and the shape of a refusal (400 problem+json whose `errors[]` names `/query/<parameter>`).
 */
import type { FieldAt } from 'restgen/contract';
import { show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key of an order: the field, and whether it descends. */
export interface OrderKey {
  readonly field: FieldAt;
  readonly descending: boolean;
}

/** Compares two strings by Unicode code point (the order of `COLLATE "C"`, and of the in-memory store). */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** A date-time as [whole seconds in ms, fraction digits], so that instants finer than a millisecond compare too. */
function instantOf(text: string): readonly [number, string] | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`);
  return Number.isNaN(ms) ? null : [ms, (m[2] ?? '').padEnd(12, '0')];
}

/**
 * Compares two present values of `field` as its kind orders them: numbers by value, date-times by instant, booleans
 * false first, any other text by code point. NaN when they are not values of the field.
 */
export function compareField(field: FieldAt, a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a !== 'string' || typeof b !== 'string') return Number.NaN;
  if (field.type.kind === 'datetime') {
    const [x, y] = [instantOf(a), instantOf(b)];
    if (x && y) return x[0] !== y[0] ? x[0] - y[0] : compareCodePoints(x[1], y[1]);
  }
  return compareCodePoints(a, b);
}

/** A value as a query parameter carries it. */
export const wireValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const absent = (value: unknown): boolean => value === undefined || value === null;

/**
 * Where two neighbouring items of a walk break `order` (then the id ascending, which breaks every tie; absent values
 * last in either direction): a sentence, or null when they are in order.
 */
export function outOfOrder(order: readonly OrderKey[], idField: string, a: Record<string, unknown>, b: Record<string, unknown>): string | null {
  for (const { field, descending } of order) {
    const [x, y] = [a[field.name], b[field.name]];
    if (absent(x) && absent(y)) continue;
    if (absent(x) || absent(y)) return absent(x) ? `a record without ${field.name} comes before one with ${show(y)} (absent values go last)` : null;
    const c = compareField(field, x, y);
    if (Number.isNaN(c)) return `${field.name} ${show(x)} and ${show(y)} are not values of the field`;
    if (c !== 0) return (descending ? c < 0 : c > 0) ? `${field.name} ${show(x)} comes before ${show(y)} (${descending ? 'descending' : 'ascending'})` : null;
  }
  const [x, y] = [String(a[idField]), String(b[idField])];
  return compareCodePoints(x, y) > 0 ? `tied records come out of id order (${x} before ${y}; ties are broken by the id, ascending)` : null;
}

/** The `?sort=` text of `order`. */
export const sortText = (order: readonly OrderKey[]): string => order.map((k) => `${k.descending ? '-' : ''}${k.field.name}`).join(',');

/**
 * Records a failure unless `exchange` is a 400 problem whose `errors[]` has an entry at `/query/<parameter>` (with
 * the `allowed` list when `listsAllowed`: a name the query does not declare).
 */
export function expectRefusal(ctx: CheckContext, exchange: Exchange, parameter: string, what: string, listsAllowed: boolean): void {
  const answer = exchange.answer;
  if (answer === null) return;
  if (answer.status !== 400) return ctx.fail(exchange.operation ?? 'list', `${what} answered ${answer.status}; expected 400`, exchange);
  const errors = isObject(answer.body) && Array.isArray(answer.body['errors']) ? answer.body['errors'] : [];
  const pointer = `/query/${parameter.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const entry = errors.find((e): e is Record<string, unknown> => isObject(e) && e['pointer'] === pointer);
  if (!entry) return ctx.fail(exchange.operation ?? 'list', `${what} answered 400 without an errors[] entry at ${pointer}`, exchange);
  if (listsAllowed && !(Array.isArray(entry['allowed']) && entry['allowed'].length > 0))
    ctx.fail(exchange.operation ?? 'list', `${what} answered 400 at ${pointer} without listing what is allowed (allowed: [...])`, exchange);
}

/** A name no field has, for refusals. */
export const UNKNOWN_NAME = 'restgen_conformance_unknown';

/** The field of `c` named `name` in the checked version. */
export function fieldNamed(ctx: CheckContext, name: string): FieldAt {
  const field = ctx.c.fields.find((f) => f.name === name);
  if (!field) return ctx.stop('list', `the model has no field ${name} in ${ctx.v.name}`);
  return field;
}
