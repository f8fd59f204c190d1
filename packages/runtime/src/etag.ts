/**
 * Entity tags and conditional requests (RFC 9110 sections 8.8.3 and 13): the strong ETag of a resource,
 * and `If-Match` / `If-None-Match` evaluated against it. The ETag is derived from the resource as handlers
 * return it (the newest version), without its write-only fields, so every version that shows the same
 * stored revision answers the same ETag, and no ETag discloses a secret.
 */
import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { createStrippedText, type TextWriter } from './json-text.js';
import type { Condition } from './types.js';

/** The ETag of a resource (quoted, strong), from the newest response schema's keys. */
export type Etagger = (resource: unknown) => string;

/** The ETag function of a collection whose newest response schema is `schema`. */
export function createEtagger(schema: z.ZodType): Etagger {
  // Keys only (write-only and unknown keys removed), no checks: the hash sees what some version may show.
  // The text is written in the schema's key order, so the same resource always gives the same text: the
  // text `JSON.stringify` makes of the key-tree strip, written without building the stripped object.
  // Written on the first resource tagged: a collection that is never read never needs it.
  let visible: TextWriter | null = null;
  return (resource) => etagOfText((visible ??= createStrippedText(schema))(resource) ?? '');
}

/**
 * The ETag of a resource already reduced to the newest response schema's keys, in its order (what
 * `createEtagger`'s function hashes): an answer of the newest version can be tagged without stripping twice.
 */
export function etagOfVisible(visible: unknown): string {
  return etagOfText(JSON.stringify(visible) ?? '');
}

/**
 * The ETag of a resource's canonical JSON text (`JSON.stringify` of what {@link etagOfVisible} takes): an
 * answer whose body is that text is serialized once, for the tag and for the wire.
 */
export function etagOfText(text: string): string {
  // BLAKE2s-256, one-shot: a cryptographic hash (no crafted collision makes two revisions share a tag),
  // cheaper than SHA-256 where the CPU has no SHA instructions; half the cost of a Hash object per answer.
  return `"${hash('blake2s256', text, 'base64url').slice(0, 22)}"`;
}

/** The tags of an `If-Match` or `If-None-Match` header: `*`, or the quoted tags listed (weak ones marked). */
type Tags = '*' | readonly { readonly tag: string; readonly weak: boolean }[];

/** The tags a header lists; null when the request does not send it. Text that is no entity tag matches nothing. */
function tagsOf(value: string | string[] | undefined): Tags | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (text.trim() === '*') return '*';
  return [...text.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({
    tag: m[2]!,
    weak: m[1] !== undefined,
  }));
}

/** The preconditions a request sends. */
export interface Preconditions {
  readonly ifMatch: Tags | null;
  readonly ifNoneMatch: Tags | null;
}

/** The request's `If-Match` and `If-None-Match`, or null when it sends neither. */
export function preconditionsOf(request: FastifyRequest): Preconditions | null {
  const ifMatch = tagsOf(request.headers['if-match']);
  const ifNoneMatch = tagsOf(request.headers['if-none-match']);
  return ifMatch === null && ifNoneMatch === null ? null : { ifMatch, ifNoneMatch };
}

/**
 * What the preconditions say about the current ETag (null: the resource does not exist), in the order of
 * RFC 9110 section 13.2.2: `If-Match` (strong comparison; `*` needs a current resource), then
 * `If-None-Match` (weak comparison). `not-modified` only for GET and HEAD; other methods fail instead.
 */
export function evaluate(p: Preconditions, current: string | null, read: boolean): 'pass' | 'failed' | 'not-modified' {
  if (p.ifMatch !== null) {
    const ok = current !== null && (p.ifMatch === '*' || p.ifMatch.some((t) => !t.weak && t.tag === current));
    if (!ok) return 'failed';
  }
  if (p.ifNoneMatch !== null) {
    const matched = current !== null && (p.ifNoneMatch === '*' || p.ifNoneMatch.some((t) => t.tag === current));
    if (matched) return read ? 'not-modified' : 'failed';
  }
  return 'pass';
}

/** The condition a write's handler checks again atomically with its write (null without preconditions). */
export function conditionOf(p: Preconditions | null, etagOf: Etagger): Condition | null {
  if (p === null) return null;
  return {
    // A missing resource (null) satisfies no If-Match, and every If-None-Match.
    matches: (current) => evaluate(p, current === null ? null : etagOf(current), false) === 'pass',
  };
}
