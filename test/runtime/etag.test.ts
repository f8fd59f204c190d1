/**
 * `packages/runtime/src/etag.ts` as source: the ETag of a resource (strong, independent of key order and of
 * write-only fields, changed by any visible change), and RFC 9110's evaluation of `If-Match` (strong
 * comparison, `*` needs a resource) and `If-None-Match` (weak comparison; 304 for reads, 412 for writes).
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHash } from 'node:crypto';
import { conditionOf, createEtagger, etagOfText, etagOfVisible, evaluate, preconditionsOf } from '../../packages/runtime/src/etag.ts';
import { isPlain } from '../../packages/runtime/src/shape.ts';

const ORDER = z.object({ id: z.uuid(), status: z.enum(['open', 'paid']), lines: z.array(z.object({ sku: z.string() })) });
const etagOf = createEtagger(ORDER);
const order = { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', status: 'open', lines: [{ sku: 'a' }] };
const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('the ETag of a resource', () => {
  it('is the same when hashed from the checked answer of a plain newest schema (no second strip)', () => {
    const nested = z.object({ id: z.uuid(), note: z.string().nullable().optional(), lines: z.array(z.strictObject({ sku: z.string(), qty: z.int() })) });
    expect(isPlain(nested)).toBe(true);
    const value = { lines: [{ qty: 2, sku: 'a' }], secret: 'x', note: null, id: order.id };
    expect(etagOfVisible(nested.parse(value))).toBe(createEtagger(nested)(value));
    expect(etagOfVisible(ORDER.parse({ ...order, extra: 1 }))).toBe(etagOf(order));
  });
  it('is computed from the resource where zod output can differ from the stripped keys', () => {
    // Defaults, transforms, coercions, unions, records and loose objects change or keep what a strip would not.
    for (const schema of [
      z.object({ a: z.string().default('x') }),
      z.object({ a: z.string().transform((s) => s.trim()) }),
      z.object({ a: z.coerce.number() }),
      z.object({ a: z.string().trim() }),
      z.object({ a: z.array(z.string().toLowerCase()).optional() }),
      z.object({ a: z.union([z.object({ b: z.string() }), z.string()]) }),
      z.object({ a: z.record(z.string(), z.string()) }),
      z.looseObject({ a: z.string() }),
      z.object({ a: z.array(z.date()) }),
    ])
      expect(isPlain(schema)).toBe(false);
  });
  it('of the canonical text is the tag of the resource (an answer sent as that text keeps its ETag): 132 bits of BLAKE2s-256', () => {
    const text = JSON.stringify(ORDER.parse(order));
    expect(etagOfText(text)).toBe(etagOf(order));
    expect(etagOfText(text)).toBe(etagOfVisible(ORDER.parse(order)));
    // The documented derivation, so that tags clients hold stay valid across deploys.
    expect(etagOfText(text)).toBe(`"${createHash('blake2s256').update(text).digest('base64url').slice(0, 22)}"`);
    // A pinned value: a tag a client stored must still match after an upgrade.
    expect(etagOfText('{"id":"a"}')).toBe('"YppErK8jIaP_JnXeuVk5fi"');
    expect(etagOfVisible({ id: 'a' })).toBe('"YppErK8jIaP_JnXeuVk5fi"');
  });
  it('is a strong, quoted tag', () => {
    expect(etagOf(order)).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });
  it('does not depend on key order, unknown keys or write-only fields (not in the response schema)', () => {
    const shuffled = { lines: [{ sku: 'a' }], status: 'open', id: order.id, password: 'secret', extra: 1 };
    expect(etagOf(shuffled)).toBe(etagOf(order));
  });
  it('changes with any field a response shows, nested ones included', () => {
    expect(etagOf({ ...order, status: 'paid' })).not.toBe(etagOf(order));
    expect(etagOf({ ...order, lines: [{ sku: 'b' }] })).not.toBe(etagOf(order));
    expect(etagOf({ ...order, lines: [] })).not.toBe(etagOf(order));
  });
});

describe('preconditions (RFC 9110 section 13)', () => {
  const tag = etagOf(order);
  const verdict = (headers: Record<string, string>, current: string | null, read = false) => {
    const p = preconditionsOf(request(headers));
    return p === null ? 'none' : evaluate(p, current, read);
  };

  it('no precondition header: nothing to evaluate', () => {
    expect(preconditionsOf(request({}))).toBeNull();
  });
  it('If-Match: passes for the current tag (one of a list), fails for another, a weak one, or a missing resource', () => {
    expect(verdict({ 'if-match': tag }, tag)).toBe('pass');
    expect(verdict({ 'if-match': `"other", ${tag}` }, tag)).toBe('pass');
    expect(verdict({ 'if-match': '"other"' }, tag)).toBe('failed');
    expect(verdict({ 'if-match': `W/${tag}` }, tag)).toBe('failed');
    expect(verdict({ 'if-match': tag }, null)).toBe('failed');
    // Without quotes it is no entity tag: it matches nothing.
    expect(verdict({ 'if-match': tag.slice(1, -1) }, tag)).toBe('failed');
  });
  it('If-Match: * passes for any current resource, fails when there is none', () => {
    expect(verdict({ 'if-match': '*' }, tag)).toBe('pass');
    expect(verdict({ 'if-match': '*' }, null)).toBe('failed');
  });
  it('If-None-Match: a match is 304 on a read and 412 on a write; weak tags match too', () => {
    expect(verdict({ 'if-none-match': tag }, tag, true)).toBe('not-modified');
    expect(verdict({ 'if-none-match': `W/${tag}` }, tag, true)).toBe('not-modified');
    expect(verdict({ 'if-none-match': tag }, tag, false)).toBe('failed');
    expect(verdict({ 'if-none-match': '"other"' }, tag, true)).toBe('pass');
    expect(verdict({ 'if-none-match': '*' }, tag, true)).toBe('not-modified');
    expect(verdict({ 'if-none-match': '*' }, null, false)).toBe('pass');
  });
  it('If-Match is evaluated before If-None-Match', () => {
    expect(verdict({ 'if-match': '"other"', 'if-none-match': tag }, tag, true)).toBe('failed');
  });
  it("a handler's condition matches the stored resource while it keeps the tag the client named", () => {
    const condition = conditionOf(preconditionsOf(request({ 'if-match': tag })), etagOf)!;
    expect(condition.matches(order)).toBe(true);
    expect(condition.matches({ ...order, status: 'paid' })).toBe(false);
    expect(conditionOf(null, etagOf)).toBeNull();
  });
});
