/**
 * @module Keyset cursors: a page ends at the `seq` of its last row, and the next page starts after it
 * (`WHERE seq > $1 ORDER BY seq`), so records created or deleted meanwhile never make a walk skip or repeat
 * a record that existed when it started (an offset would). The cursor is the seq and an HMAC of the seq
 * and the list's filters: opaque to clients, and one that was changed, or issued for other filters, answers
 * 400 instead of walking from some other place.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequest } from '../shop/generated/server/index.js';

/** The filters of a list query, as `[column, value]` pairs of the values sent. */
export type Filters = readonly (readonly [string, string])[];

/** Encodes and checks the cursors of one set of handlers. */
export interface Cursors {
  /** The cursor of the page that starts after `seq` (a bigint in decimal digits). */
  encode(seq: string, filters: Filters): string;
  /** The seq a cursor starts after ('0' without one), or a 400 for a cursor this server did not issue for these filters. */
  decode(cursor: string | undefined, filters: Filters): string | BadRequest;
}

/** Cursors signed with `secret`: every instance that serves one database must share it. */
export function createCursors(secret: Uint8Array): Cursors {
  const mac = (seq: string, filters: Filters) =>
    createHmac('sha256', secret)
      .update(JSON.stringify([seq, [...filters].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]))
      .digest()
      .subarray(0, 16);
  const refused = () =>
    new BadRequest('The cursor is not one this server issued for these filters.', [
      { pointer: '#/cursor', detail: 'unknown cursor, or one issued for other filters', parameter: 'cursor' },
    ]);
  const encode = (seq: string, filters: Filters) => Buffer.from(`${seq}.${mac(seq, filters).toString('base64url')}`).toString('base64url');
  return {
    encode,
    decode(cursor, filters) {
      if (cursor === undefined) return '0';
      const seq = /^(\d{1,19})\./.exec(Buffer.from(cursor, 'base64url').toString())?.[1];
      if (seq === undefined) return refused();
      // Exactly the text `encode` writes for this seq and these filters (compared in constant time).
      const expected = Buffer.from(encode(seq, filters));
      const given = Buffer.from(cursor);
      return given.length === expected.length && timingSafeEqual(given, expected) ? seq : refused();
    },
  };
}
