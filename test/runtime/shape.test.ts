/**
 * `packages/runtime/src/shape.ts` as source: the response schema decides what an answer may hold, at every
 * depth, with validation (zod parses) and without (a key tree strips).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createShaper, pointerOf } from '../../packages/runtime/src/shape.ts';

const Account = z.object({
  id: z.uuid(),
  login: z.object({ user: z.string() }).optional(),
  keys: z.array(z.object({ label: z.string() })).max(3),
  tags: z.array(z.string()),
  note: z.string().nullable(),
});
const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const answer = {
  id: ID,
  login: { user: 'u', secret: 'S1' },
  keys: [{ label: 'a', privateKey: 'S2' }],
  tags: ['t'],
  note: null,
  hash: 'S3',
};
const clean = { id: ID, login: { user: 'u' }, keys: [{ label: 'a' }], tags: ['t'], note: null };

describe.each([true, false])('createShaper (validate: %s)', (validate) => {
  const shape = createShaper(Account, validate);

  it('removes unknown keys at every depth: objects, arrays of objects, the top', () => {
    expect(shape(answer)).toEqual({ ok: true, value: clean });
  });

  it('never mutates the answer it is given', () => {
    const copy = structuredClone(answer);
    shape(answer);
    expect(answer).toEqual(copy);
  });
});

describe('createShaper with validation', () => {
  const shape = createShaper(Account, true);
  it.each([
    [{ ...clean, id: 12345 }, '#/id'],
    [{ ...clean, keys: [{ label: 'a' }, { label: 7 }] }, '#/keys/1/label'],
    [{ ...clean, keys: Array(4).fill({ label: 'a' }) }, '#/keys'],
    [[clean], '#'],
    [{ ...clean, login: { user: null } }, '#/login/user'],
  ])('reports the first violation as a JSON pointer: %j', (value, pointer) => {
    const shaped = shape(value);
    expect(shaped.ok).toBe(false);
    expect(shaped.ok ? '' : shaped.pointer).toBe(pointer);
  });
});

describe('createShaper without validation', () => {
  const shape = createShaper(Account, false);
  it('checks no value, but an object never passes where the schema has a plain value', () => {
    const { note: _note, ...rest } = clean;
    expect(shape({ ...clean, id: 12345, note: { secret: 'S' }, tags: [{ secret: 'S' }, 'x'] })).toEqual({
      ok: true,
      value: { ...rest, id: 12345, tags: [undefined, 'x'] },
    });
  });
  it('an array where an object belongs becomes an empty object; an object where an array belongs an empty array', () => {
    expect(shape({ ...clean, login: [{ user: 'u', secret: 'S' }], keys: { label: 'x' } })).toEqual({ ok: true, value: { ...clean, login: {}, keys: [] } });
  });
  it('reads own keys only (a field may be called constructor)', () => {
    const schema = z.object({ constructor: z.string().optional() });
    expect(createShaper(schema, false)({})).toEqual({ ok: true, value: {} });
  });
});

describe('pointerOf', () => {
  it('escapes ~ and / (RFC 6901)', () => {
    expect(pointerOf(['a/b', 'c~d', 0])).toBe('#/a~1b/c~0d/0');
    expect(pointerOf([])).toBe('#');
  });
});
