/**
 * The checked writer compiles each object schema's writer into a function of its own (one statement per
 * member), so that V8 optimizes it for that schema's values alone. Its keys become string literals in that code:
 * a key that reads as code is written as the key it is and runs nothing. Where the platform refuses code from
 * strings (`node --disallow-code-generation-from-strings`), the same writer runs as one loop over the members,
 * and writes and refuses exactly what the compiled one does.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCheckedText } from '../../packages/runtime/src/checked-text.ts';
import { tempDir } from '../helpers/temp-api.ts';

const tmp = tempDir('compiled-writer');
afterAll(tmp.cleanup);

/** Keys that would break out of a string literal, or run, if they were pasted into code as they are. */
const HOSTILE = [
  "'); globalThis.pwned = true; ('",
  '"); globalThis.pwned = true; ("',
  '\\',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a key that would run if pasted into a template literal
  '`${globalThis.pwned = true}`',
  '\u2028',
  'a\nb',
  '*/ globalThis.pwned = true; /*',
  'constructor',
  'toString',
];

describe('the compiled object writer', () => {
  it('writes keys that read as code as the keys they are, and runs none of them', () => {
    const schema = z.object(Object.fromEntries(HOSTILE.map((key, i) => [key, i % 2 === 0 ? z.string() : z.number().optional()])));
    const write = createCheckedText(schema)!;
    const value = Object.fromEntries(HOSTILE.map((key, i) => [key, i % 2 === 0 ? `v${i}` : i]));
    expect(write(value)).toBe(JSON.stringify(schema.parse(value)));
    expect('pwned' in globalThis).toBe(false);
    // A required member missing, and a member of the wrong type, are refused.
    expect(write({ ...value, [HOSTILE[0]!]: undefined })).toBeNull();
    expect(write({ ...value, [HOSTILE[1]!]: 'one' })).toBeNull();
  });

  it('writes what JSON.stringify makes of zod parse output, and refuses what zod refuses, for nested objects', () => {
    const schema = z.object({
      id: z.uuid(),
      tags: z.array(z.object({ name: z.string().max(5), weight: z.number().int().optional() })),
      owner: z.object({ email: z.email(), note: z.string().nullable().optional() }).optional(),
    });
    const write = createCheckedText(schema)!;
    // Mostly valid values, each member sometimes wrong: both verdicts come up often.
    const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });
    const tag = fc.record(
      {
        name: mostly(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ minLength: 6 }), fc.integer())),
        weight: fc.option(mostly(fc.integer(), fc.double()), { nil: undefined }),
      },
      { requiredKeys: ['name'] },
    );
    const value = fc.record(
      {
        id: mostly(fc.uuid({ version: 4 }), fc.string()),
        tags: fc.array(tag, { maxLength: 4 }),
        owner: fc.record(
          { email: mostly(fc.constantFrom('ada@example.com', 'ops@shop.example.org'), fc.string()), note: fc.option(fc.string(), { nil: null }) },
          { requiredKeys: ['email'] },
        ),
        extra: fc.string(),
      },
      { requiredKeys: ['id', 'tags'] },
    );
    let [accepted, refused] = [0, 0];
    fc.assert(
      fc.property(value, (v) => {
        const parsed = schema.safeParse(v);
        const written = write(v);
        // Stricter than zod is allowed (zod then decides); looser never.
        if (!parsed.success) {
          expect(written).toBeNull();
          refused++;
        } else if (written !== null) {
          expect(written).toBe(JSON.stringify(parsed.data));
          accepted++;
        }
      }),
      { numRuns: 300 },
    );
    // Both sides were really tried: a writer that refused everything, or accepted everything, fails here.
    expect(accepted).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(30);
  });
});

describe('without code generation from strings', () => {
  it('writes and refuses exactly what the compiled writer does', () => {
    const script = path.join(tmp.dir, 'writer.ts');
    const source = pathToFileURL(path.resolve('packages/runtime/src/checked-text.ts')).href;
    writeFileSync(
      script,
      `import { z } from 'zod';
import { createCheckedText } from ${JSON.stringify(source)};
let compiles = true;
try { new Function('return 1'); } catch { compiles = false; }
const schema = z.object({ id: z.uuid(), n: z.number().int().optional(), tags: z.array(z.object({ name: z.string() })) });
const write = createCheckedText(schema);
const values = [
  { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', n: 1, tags: [{ name: 'a' }], extra: true },
  { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', tags: [] },
  { id: 'not a uuid', tags: [] },
  { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', n: 1.5, tags: [] },
  { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', tags: [{ name: 1 }] },
  { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', n: undefined, tags: [{ name: 'é"\\\\' }] },
  null,
  [],
];
console.log(JSON.stringify({ compiles, written: values.map((v) => write(v)) }));
`,
    );
    const run = (flags: string[]) =>
      JSON.parse(execFileSync(process.execPath, [...flags, '--import', 'jiti/register', script], { cwd: process.cwd(), encoding: 'utf8' })) as {
        compiles: boolean;
        written: (string | null)[];
      };
    const compiled = run([]);
    const looped = run(['--disallow-code-generation-from-strings']);
    expect(compiled.compiles).toBe(true);
    expect(looped.compiles).toBe(false);
    expect(looped.written).toEqual(compiled.written);
    expect(compiled.written.filter((w) => w !== null)).toHaveLength(3);
  }, 30_000);
});
