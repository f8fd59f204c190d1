/**
 * `restgen conformance` catches realistic handler bugs: each broken server of `buggy-handlers.ts` (the generated
 * memory handlers, or server, with one mistake) makes the command exit 1 with the check that names the mistake
 * failed, its failure showing the request and the answer; the same run against the unbroken handlers exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckId } from '@restgen/conformance';
import { runCli } from '../cli/run-cli.ts';
import { HEADER_API } from '../server/helpers.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { NOTES_BUGS, SHOP_BUGS, type Bug } from './buggy-handlers.ts';
import { loadExample, stopAll, type Example, type Handlers } from './helpers.ts';

interface JsonReport {
  readonly results: readonly {
    check: CheckId;
    version: string;
    collection: string;
    status: string;
    failures: readonly { operation: string; message: string; request?: { method: string; url: string }; answer?: { status: number } | null }[];
  }[];
}

const examples: Record<'shop' | 'notes', Example> = {} as Record<'shop' | 'notes', Example>;
beforeAll(async () => {
  [examples.shop, examples.notes] = await Promise.all([loadExample('shop'), loadExample('notes')]);
});
afterAll(stopAll);

/** Runs the command against `url` as CI would, narrowed as the bug says; its exit code and JSON report. */
async function conformance(api: string, url: string, bug: Bug): Promise<{ code: number; report: JsonReport; err: string }> {
  const argv = ['conformance', api, '--url', url, '--header', 'Authorization: Bearer ci', '--format', 'json', '--seed', '11', '--quiet'];
  for (const c of bug.only ?? []) argv.push('--only', c);
  for (const v of bug.versions ?? []) argv.push('--version', v);
  const run = await runCli(process.cwd(), argv);
  return { code: run.code, report: JSON.parse(run.out) as JsonReport, err: run.err };
}

function suite(name: 'shop' | 'notes', api: string, bugs: readonly Bug[]) {
  describe(`against the ${name} example`, () => {
    it(`has at least ${name === 'shop' ? 10 : 5} broken servers, each a distinct mistake`, () => {
      expect(bugs.length).toBeGreaterThanOrEqual(name === 'shop' ? 10 : 5);
      expect(new Set(bugs.map((b) => b.name)).size).toBe(bugs.length);
    });

    for (const bug of bugs)
      it(`catches ${bug.name}: ${bug.story}`, async () => {
        const example = examples[name];
        let handlers: Handlers | undefined;
        const server = await example.start({
          wrap: async (h, dir) => (handlers = bug.wrap ? await bug.wrap(h, dir, example.ir) : h),
          ...(bug.mount ? { mount: (app) => bug.mount!(app, () => handlers!) } : {}),
          ...(bug.options ? { options: bug.options } : {}),
        });
        const { code, report, err } = await conformance(api, server.url, bug);
        expect(code, err).toBe(1);
        const failed = report.results.filter((r) => r.status === 'failed');
        for (const check of bug.caughtBy) {
          const result = failed.find((r) => r.check === check);
          expect(result, `${check} should fail; failed: ${failed.map((r) => r.check).join(', ')}`).toBeDefined();
          // Each failure says which operation, and a failure about an answer shows the request and the answer.
          for (const f of result!.failures) {
            expect(f.operation).not.toBe('');
            if (f.request) expect(f.request.url.startsWith(server.url)).toBe(true);
          }
          expect(result!.failures.some((f) => f.request !== undefined && f.answer)).toBe(true);
        }
        expect(err).toContain('failed');
      });

    it('passes the same narrowed runs against the unbroken handlers (exit 0)', async () => {
      const server = await examples[name].start();
      const seen = new Set<string>();
      for (const bug of bugs) {
        const key = JSON.stringify([bug.only, bug.versions]);
        if (seen.has(key)) continue;
        seen.add(key);
        const { code, report } = await conformance(api, server.url, { ...bug, caughtBy: [] });
        expect(code, JSON.stringify(report.results.filter((r) => r.status === 'failed'))).toBe(0);
      }
    });
  });
}

suite('shop', SHOP_API, SHOP_BUGS);
suite('notes', HEADER_API, NOTES_BUGS);
