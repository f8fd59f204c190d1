/**
 * A list's cursors bound to their query: the cursor sent to a client is the handler's behind a digest of the sort
 * and filters it was issued for, so one sent with another query answers 400 `cursor_mismatch` (and text that is
 * no cursor of ours, 400 `invalid_cursor`). The digest is built per route at mount: the filters it can hold are
 * known then, in the order the digest's text lists them, so a request only appends its values.
 */
import { HttpProblem, type ProblemIssue } from './problems.js';
import type { QuerySpec } from './spec.js';
import type { ListQuery } from './types.js';

/** The digest of a list query's sort and filters (11 characters of `[0-9a-z]`). */
export type QueryDigest = (query: Pick<ListQuery, 'filter' | 'sort'>) => string;

/** One filtered field as the digest lists it: its lead-in, and each operator's (name order both). */
interface DigestField {
  readonly key: string;
  readonly head: string;
  readonly ops: readonly (readonly [op: string, lead: string])[];
}

/**
 * The digest of what a cursor's position depends on, for the lists of a route whose filters are `spec.filters`.
 * It hashes the query's canonical text: each filtered field (by key, in code-unit order) as `\u0001key`, then
 * each operator given (in order) as `\u0002op\u0003` and the value's JSON, then each sort key as
 * `\u0004field\u0005direction`. The text never changes between releases, so that cursors outlive a deploy. It
 * tells a cursor sent with another query from one sent with its own (a client's mistake); it guards nothing (a
 * handler's cursor must not trust its text), so a fast 53-bit hash of that text does. The text is hashed piece by
 * piece as it is read (the pieces known at mount written once), never joined.
 */
export function createQueryDigest(spec: QuerySpec): QueryDigest {
  const byKey = new Map<string, Set<string>>();
  for (const [key, op] of Object.values(spec.filters ?? {})) byKey.set(key, (byKey.get(key) ?? new Set()).add(op));
  const fields: DigestField[] = [...byKey.keys()].sort().map((key) => ({
    key,
    head: `\u0001${key}`,
    ops: [...byKey.get(key)!].sort().map((op) => [op, `\u0002${op}\u0003`] as const),
  }));
  return (query) => {
    start();
    let empty = query.sort.length === 0;
    for (const { key, head, ops } of fields) {
      const given = query.filter[key] as Readonly<Record<string, unknown>> | undefined;
      if (given === undefined) continue;
      empty = false;
      feed(head);
      for (const [op, lead] of ops) {
        const value = given[op];
        if (value === undefined) continue;
        feed(lead);
        feed(jsonOf(value));
      }
    }
    for (const k of query.sort) {
      feed(SORT_KEY);
      feed(k.field);
      feed(SORT_DIRECTION);
      feed(k.direction);
    }
    // A list without filters or sort (the most common) has one digest, that of the empty text.
    return empty ? EMPTY : base36(end());
  };
}

const SORT_KEY = '\u0004';
const SORT_DIRECTION = '\u0005';

/** `JSON.stringify(value)`, without its call for a finite number (the usual filter value). */
const jsonOf = (value: unknown): string => (typeof value === 'number' && Number.isFinite(value) ? `${value}` : JSON.stringify(value));

// cyrb53 (public domain), a fast, well-mixed 53-bit string hash, fed a text in pieces (`start`, `feed`..., `end`):
// the same value as of the joined text, without reading a joined (rope) string, whose characters V8 reads on a
// slower path. One digest is made at a time (synchronously), so its state is the module's.
let h1 = 0;
let h2 = 0;

function start(): void {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
}

function feed(text: string): void {
  let a = h1;
  let b = h2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 2654435761);
    b = Math.imul(b ^ c, 1597334677);
  }
  h1 = a;
  h2 = b;
}

function end(): number {
  const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return 4294967296 * (2097151 & b) + (a >>> 0);
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Every pair of base-36 digits, by value (`PAIRS[37]` is `11`). */
const PAIRS = Array.from({ length: 36 * 36 }, (_, n) => DIGITS[Math.floor(n / 36)]! + DIGITS[n % 36]!);

/**
 * `n.toString(36).padStart(11, '0')` for a whole `n` below 2^53, whose 11 digits it always fills; V8 converts a
 * double to another radix on a slow general path (microseconds), this by pairs of digits, in exact steps.
 */
export function base36(n: number): string {
  let out = '';
  // Ten digits in pairs from the right (each step exact: the remainder first, then an exact division), then the
  // eleventh, which is below 36 for n below 2^53.
  for (let i = 0; i < 5; i++) {
    const pair = (n % 1296) | 0;
    out = PAIRS[pair]! + out;
    n = (n - pair) / 1296;
  }
  return DIGITS[n | 0]! + out;
}

/** The digest of the empty text. */
const EMPTY = (() => {
  start();
  return base36(end());
})();

/** The cursor sent to the client: the handler's, behind the digest of the query it was issued for. */
export const wrapCursor = (digest: string, inner: string): string => `${digest}.${inner}`;

const CURSOR = /^([0-9a-z]{11})\.(.+)$/s;

/** The handler's cursor inside a client's, or the 400 it answers: not one of ours, or issued for another query. */
export function unwrapCursor(cursor: string, digest: string): string | HttpProblem {
  const match = CURSOR.exec(cursor);
  const issue = (detail: string): ProblemIssue[] => [{ pointer: '/query/cursor', detail, parameter: 'cursor' }];
  if (match === null)
    return new HttpProblem(400, 'invalid_cursor', 'The cursor is not one this server issued; start the list again without a cursor.', {
      errors: issue('not a cursor of this list'),
    });
  if (match[1] !== digest)
    return new HttpProblem(
      400,
      'cursor_mismatch',
      'The cursor was issued for another sort or other filters; send it with the sort and filters of the request that returned it, or start again without a cursor.',
      { errors: issue('issued for another sort or other filters') },
    );
  return match[2]!;
}
