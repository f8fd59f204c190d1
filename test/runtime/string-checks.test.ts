/**
 * How strings are checked and written. A string that passed a pattern which allows only plain characters (no quote, backslash, control character or
 * surrogate) is written by quoting it, without the escape check: `escapeFree` must never call a pattern plain
 * that lets such a character through. zod's formats the generated schemas use are plain, and every string they
 * accept (generated from the pattern) is its own JSON text; patterns that may accept a character JSON escapes
 * are refused, and the checked writer escapes their strings as `JSON.stringify` does. Each string is judged by
 * its own schema's pattern with its flags, however often the same string was written before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCheckedText } from '../../packages/runtime/src/checked-text.ts';
import { escapeFree } from '../../packages/runtime/src/zod-checks.ts';

/** The pattern zod tests a string format schema with. */
const patternOf = (schema: z.ZodType): RegExp => {
  const def = (schema as unknown as { _zod: { def: { pattern?: RegExp; checks?: { _zod: { def: { pattern?: RegExp } } }[] } } })._zod.def;
  const pattern = def.pattern ?? def.checks?.[0]?._zod.def.pattern;
  if (!(pattern instanceof RegExp)) throw new Error('no pattern');
  return pattern;
};

const PLAIN: Record<string, RegExp> = {
  uuid: patternOf(z.uuid()),
  guid: patternOf(z.guid()),
  'date-time with offset': patternOf(z.iso.datetime({ offset: true })),
  'date-time': patternOf(z.iso.datetime()),
  date: patternOf(z.iso.date()),
  time: patternOf(z.iso.time()),
  // zod 4.0's email pattern has lookaheads, which escapeFree refuses (emails are then escaped: the same bytes, a
  // little slower); later releases' is plain (npm run test:zod-floor runs this file on 4.0).
  ...(z.core.version.minor > 0 ? { email: patternOf(z.email()) } : {}),
  'a DSL pattern': patternOf(z.string().regex(/^\d{5}$/)),
  // biome-ignore lint/complexity/noUselessEscapeInRegex: escapes the writer's pattern reader must accept
  'escaped punctuation and groups': /^(?:[A-Z]{2}\.)?(a|b)\$[0-9a-f\-]{1,4}$/,
};

const REFUSED: Record<string, RegExp> = {
  'any character': /^a.b$/,
  'a negated class': /^[^"]+$/,
  'a range across punctuation': /^[ -~]+$/,
  // biome-ignore lint/complexity/noUselessEscapeInRegex: an escaped '-' starting a range, on purpose
  'a range from an escape': /^[\--z]+$/,
  'a range across cases': /^[A-z]+$/,
  'a quote in a class': /^[a-z"]+$/,
  'a backslash': /^a\\b$/,
  'a unicode escape': /^\u0022$/,
  'a space class': /^\s$/,
  'not anchored': /[a-z]+/,
  'a top-level alternative': /^a|"$/,
  multiline: /^[a-z]+$/m,
  'a lookahead': /^(?=")..$/,
  'a backreference': /^(a)\1$/,
  'a non-ASCII character': /^é$/,
};

describe('escapeFree', () => {
  it.each(Object.entries(PLAIN))('calls %s plain, and every string it accepts is its own JSON text', (_name, pattern) => {
    expect(escapeFree(pattern)).toBe(true);
    fc.assert(
      fc.property(fc.stringMatching(pattern), (s) => {
        pattern.lastIndex = 0;
        expect(pattern.test(s)).toBe(true);
        expect(JSON.stringify(s)).toBe(`"${s}"`);
      }),
      { numRuns: 200 },
    );
  });

  it.each(Object.entries(REFUSED))('refuses %s', (_name, pattern) => {
    expect(escapeFree(pattern)).toBe(false);
  });
});

describe('the checked writer', () => {
  it('escapes a string its pattern lets quotes and backslashes through, as JSON.stringify does', () => {
    const schema = z.object({ code: z.string().regex(/^[a-z"\\]+$/), id: z.uuid() });
    const value = { code: 'a"b\\c', id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11' };
    expect(createCheckedText(schema)!(value)).toBe(JSON.stringify(value));
  });
});

describe("a pattern's verdicts", () => {
  it('belong to the pattern with its flags: a string the case-insensitive pattern passed still fails the other', () => {
    const loose = createCheckedText(z.object({ code: z.string().regex(/^[a-f]+$/i) }))!;
    const strict = createCheckedText(z.object({ code: z.string().regex(/^[a-f]+$/) }))!;
    for (let round = 0; round < 2; round++) {
      expect(loose({ code: 'ABC' })).toBe('{"code":"ABC"}');
      expect(strict({ code: 'ABC' })).toBeNull();
      expect(strict({ code: 'abc' })).toBe('{"code":"abc"}');
      expect(strict({ code: 'abc"' })).toBeNull();
    }
  });

  it('are the same from a global pattern, however often it was asked', () => {
    const write = createCheckedText(z.object({ code: z.string().regex(/^[a-f]+$/g) }))!;
    for (let round = 0; round < 3; round++) {
      expect(write({ code: 'abc' })).toBe('{"code":"abc"}');
      expect(write({ code: 'abx' })).toBeNull();
    }
  });
});

describe('the checked writer of a uuid', () => {
  const pattern = patternOf(z.uuid());
  const valid = fc.stringMatching(pattern);
  /** A string near a uuid: one character of a valid one replaced, cut or doubled, from an alphabet of near misses. */
  const near = fc
    .tuple(valid, fc.nat(40), fc.constantFrom(...'0189abcdefABCDEFgG-xz \u0660'), fc.constantFrom('replace', 'cut', 'insert'))
    .map(([s, at, c, how]) => {
      const i = at % (s.length + 1);
      if (how === 'replace') return s.slice(0, i) + c + s.slice(i + 1);
      if (how === 'cut') return s.slice(0, i) + s.slice(i + 1);
      return s.slice(0, i) + c + s.slice(i);
    });
  const arbitrary = fc.oneof(
    valid,
    near,
    fc.string({ minLength: 36, maxLength: 36 }),
    fc.string(),
    fc.constantFrom(
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '00000000-0000-0000-0000-00000000000',
    ),
  );

  it("agrees with zod's parse on uuids, near misses and any string", () => {
    const write = createCheckedText(z.object({ id: z.uuid() }))!;
    fc.assert(
      fc.property(arbitrary, (id) => {
        const parsed = z.object({ id: z.uuid() }).safeParse({ id });
        expect(write({ id })).toBe(parsed.success ? JSON.stringify(parsed.data) : null);
      }),
      { numRuns: 2000 },
    );
  });
});
