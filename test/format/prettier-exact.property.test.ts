/**
 * Property test: for random APIs (long names, long enum lists and patterns, nested objects and arrays, many
 * fields, unicode descriptions), every TypeScript file restgen renders is exactly what prettier prints
 * for it with its default options, so writing it unformatted is the same as formatting it.
 */
import fc from 'fast-check';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import type { ApiDef } from '../../generator/dsl/defs.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import { emitAll } from '../../generator/pipeline/generate.ts';
import { randomApi } from './random-api.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
/** The whole property (runs and shrinking) stops here, inside the test's timeout, so a failure is reported with the smallest case found so far instead of shrinking past the timeout. */
const TIME_LIMIT_MS = 180_000;

describe("rendered output equals prettier's", () => {
  it('for random APIs', { timeout: TIME_LIMIT_MS + 60_000 }, async () => {
    let checked = 0;
    // Texts already found exact: every random API's client carries the same runtime files, and prettier prints the
    // same text the same way, so each distinct text is formatted once (most of the time otherwise goes to copies).
    const exact = new Set<string>();
    await fc.assert(
      fc.asyncProperty(randomApi, async (def) => {
        const bag = new DiagnosticBag();
        const ir = buildApi(def as unknown as ApiDef, 'api.ts', bag);
        checkApi(ir, bag);
        // Random definitions that break the DSL's rules are not the printer's concern.
        fc.pre(!bag.hasErrors);
        for (const file of await emitAll(ir, '../api.ts')) {
          if (file.language !== 'typescript' || exact.has(file.content)) continue;
          const pretty = await prettier.format(file.content, { parser: 'typescript' });
          expect(file.content, file.path).toBe(pretty);
          exact.add(file.content);
        }
        checked++;
      }),
      {
        numRuns: RUNS,
        plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)],
        seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined,
      },
    );
    // An interrupted property counts as passed: it must still have checked most of its runs.
    expect(checked).toBeGreaterThan(RUNS / 2);
  });
});
