/**
 * @module Keyset cursors: a page ends at a row, and the next page starts after it (in creation order, after its
 * `seq`; in a sort, after its values of the sort's keys), so records created or deleted meanwhile never make a walk
 * skip or repeat a record that existed when it started (an offset would). The cursor is the position and an HMAC
 * of the position and the list's filters and sort: opaque to clients, and one that was changed, or issued for
 * another query, answers 400 instead of walking from some other place. (The generated server also sends it behind
 * a digest of the query, answering `cursor_mismatch` before a handler sees it; the HMAC keeps forgeries out.)
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequest, type ListQuery } from '../shop/generated/server/index.js';
import type { Position } from './list-query.js';

/** Encodes and checks the cursors of one set of handlers. */
export interface Cursors {
  /** The cursor of the page that starts after `position`, for `query`'s filters and sort. */
  encode(position: Position, query: ListQuery): string;
  /** The position a cursor starts after (null without one), or a 400 for a cursor this server did not issue for this query. */
  decode(cursor: string | undefined, query: ListQuery): Position | null | BadRequest;
}

const scalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A position as its JSON says, or null when it is not one. */
function positionOf(value: unknown): Position | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as { seq?: unknown; after?: unknown };
  if (typeof p.seq === 'string' && /^\d{1,19}$/.test(p.seq)) return { seq: p.seq };
  if (Array.isArray(p.after) && p.after.every(scalar)) return { after: p.after };
  return null;
}

/** Cursors signed with `secret`: every instance that serves one database must share it. */
export function createCursors(secret: Uint8Array): Cursors {
  const mac = (text: string, query: ListQuery) =>
    createHmac('sha256', secret)
      .update(JSON.stringify([text, Object.entries(query.filter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), query.sort]))
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const refused = () =>
    new BadRequest('The cursor is not one this server issued for these filters and this sort.', [
      { pointer: '/query/cursor', detail: 'unknown cursor, or one issued for another query', parameter: 'cursor' },
    ]);
  return {
    encode(position, query) {
      const text = Buffer.from(JSON.stringify(position)).toString('base64url');
      return `${text}.${mac(text, query)}`;
    },
    decode(cursor, query) {
      if (cursor === undefined) return null;
      const [text = '', signature = ''] = cursor.split('.');
      const expected = Buffer.from(mac(text, query));
      const given = Buffer.from(signature);
      // Exactly the HMAC `encode` writes for this position and this query (compared in constant time).
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refused();
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(text, 'base64url').toString());
      } catch {
        return refused();
      }
      return positionOf(value) ?? refused();
    },
  };
}
