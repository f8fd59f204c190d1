/**
 * The kinds table is the one place a field kind is described: adding a kind (here `decimal`, in a scratch copy of
 * the sources) must fail to compile at exactly the places that have to say what the new kind means, and nowhere
 * else. A place missing from the list would compile and then misbehave (a `switch` that falls through, a list of
 * kinds written out by hand); a place added to it is a table that could have derived its answer.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FIELD_KINDS } from '../../generator/dsl/defs.ts';
import { KINDS } from '../../generator/model/kinds.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
// Inside the repository, so the copy resolves zod, fastify and the rest from its node_modules.
const scratch = path.join(ROOT, 'test/.tmp', `kinds-${process.pid}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where a new kind must be handled, and why. */
const MUST_HANDLE: Readonly<Record<string, string>> = {
  'generator/dsl/field.ts': 'the builder users call (f.decimal())',
  'generator/model/kinds.ts': 'the kinds table: wire type, format, bounds, sample value',
  'generator/model/build-field.ts': 'building the IR type from the builder',
  'generator/model/values.ts': 'checking defaults and examples against the type',
  'generator/emit/zod/zod-expression.ts': 'the zod schema',
  'generator/emit/openapi/field-schema.ts': 'the JSON Schema in OpenAPI',
  'generator/emit/scalar-types.ts': 'the TypeScript type in the client and the hook signatures',
  'packages/conformance/src/values.ts': 'the values restgen conformance sends (@restgen/conformance, through restgen/contract)',
};

const replaceIn = (file: string, from: string, to: string): void => {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${from}: update this test`);
  writeFileSync(file, text.replace(from, to));
};

describe('the kinds table', () => {
  it('lists the same kinds as the DSL', () => {
    expect(Object.keys(KINDS).sort()).toEqual([...FIELD_KINDS].sort());
  });

  it('makes a new kind a compile error exactly where it must be handled', async () => {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(path.join(scratch, 'packages'), { recursive: true });
    for (const dir of ['generator', 'runtime']) cpSync(path.join(ROOT, dir), path.join(scratch, dir), { recursive: true });
    for (const pkg of ['runtime', 'conformance'])
      cpSync(path.join(ROOT, `packages/${pkg}/src`), path.join(scratch, `packages/${pkg}/src`), { recursive: true });
    replaceIn(path.join(scratch, 'generator/dsl/defs.ts'), "  'file',\n] as const", "  'file',\n  'decimal',\n] as const");
    replaceIn(
      path.join(scratch, 'generator/model/ir-history.ts'),
      "  | { readonly kind: 'object'; readonly fields: readonly F[] }\n",
      "  | { readonly kind: 'object'; readonly fields: readonly F[] }\n  | { readonly kind: 'decimal'; readonly min?: number; readonly max?: number }\n",
    );
    const own = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    const config = {
      compilerOptions: {
        ...own.compilerOptions,
        paths: {
          '@restgen/runtime': ['./packages/runtime/src/index.ts'],
          '@restgen/conformance': ['./packages/conformance/src/index.ts'],
          'restgen/contract': ['./generator/conformance/contract.ts'],
        },
      },
      include: ['generator', 'packages/runtime/src', 'packages/conformance/src'],
    };
    writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify(config));
    const tsc = path.join(ROOT, 'node_modules/typescript-native/bin/tsc');
    const output = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', scratch], { cwd: scratch }).then(
      () => '',
      (e: { stdout?: string }) => e.stdout ?? '',
    );
    const files = [...new Set([...output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!))].sort();
    expect(files, output).toEqual(Object.keys(MUST_HANDLE).sort());
  }, 120_000);
});
