/**
 * The bench measures what it says: a child's CPU time (not its wall time) and its peak resident memory,
 * it refuses a run that did not take the path being measured, and the report's growth ratios divide the
 * 1,000-collection figures by the 200-collection ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measure, measureOnce, median } from '../../bench/measure.ts';
import { buildReport, formatReport, type SizeResult } from '../../bench/report.ts';
import { RESTGEN_PATHS } from '../../bench/restgen-paths.ts';
import { tempDir } from '../helpers/temp-api.ts';

const tmp = tempDir('bench-measure');
afterAll(tmp.cleanup);

function script(name: string, source: string): string {
  const file = path.join(tmp.dir, name);
  writeFileSync(file, source);
  return file;
}

describe('measureOnce', () => {
  it('reports CPU time spent and peak memory held, apart from time spent waiting', () => {
    const busy = script('busy.mjs', `const a = Buffer.alloc(200 * 2 ** 20, 1); const end = Date.now() + 400; while (Date.now() < end); console.log(a[0]);`);
    const idle = script('idle.mjs', `setTimeout(() => console.log('done'), 400);`);
    const b = measureOnce({ args: [busy], cwd: tmp.dir, expectOutput: /^1$/m });
    const i = measureOnce({ args: [idle], cwd: tmp.dir });
    expect(b.cpuMs).toBeGreaterThan(300);
    expect(b.peakRssMiB).toBeGreaterThan(200);
    expect(i.wallMs).toBeGreaterThan(390);
    expect(i.cpuMs).toBeLessThan(i.wallMs - 150);
    expect(i.peakRssMiB).toBeLessThan(150);
  });

  it('throws, with the output, on an unexpected exit code or output', () => {
    const failing = script('failing.mjs', `console.error('broken on purpose'); process.exitCode = 3;`);
    expect(() => measureOnce({ args: [failing], cwd: tmp.dir })).toThrow(/exited 3 \(expected 0\):\nbroken on purpose/);
    expect(measureOnce({ args: [failing], cwd: tmp.dir, expectCode: 3 }).cpuMs).toBeGreaterThan(0);
    expect(() => measureOnce({ args: [failing], cwd: tmp.dir, expectCode: 3, expectOutput: /up to date/ })).toThrow(/output matching/);
  });

  it('runs the preparation before every run and takes medians', () => {
    const counter = path.join(tmp.dir, 'count.txt');
    writeFileSync(counter, '');
    const noop = script('noop.mjs', '');
    measure(3, () => writeFileSync(counter, 'x', { flag: 'a' }), { args: [noop], cwd: tmp.dir });
    expect(readFileSync(counter, 'utf8')).toBe('xxx');
    expect(median([5, 1, 3])).toBe(3);
  });
});

describe('the report', () => {
  const sample = (ms: number, mib: number) => ({ wallMs: ms, cpuMs: ms * 2, peakRssMiB: mib });
  const size = (collections: number, k: number): SizeResult => ({
    collections,
    files: collections * 7,
    bytes: collections * 67_000,
    paths: Object.fromEntries(RESTGEN_PATHS.map((p) => [p, sample(1000 * k, 100 * k)])) as SizeResult['paths'],
    orval: sample(2000 * k, 200),
    diffMs: k,
  });

  it("divides the 1,000-collection figures by the 200-collection ones, and restgen's cold CPU by orval's", () => {
    const report = buildReport([size(20, 0.5), size(200, 2), size(1000, 10)], 3, '8.38.0', 1);
    expect(report.growth?.['cold generate']).toEqual({ wall: 5, cpu: 5, rss: 5 });
    expect(report.growth?.['orval']).toEqual({ wall: 5, cpu: 5, rss: 1 });
    const text = formatReport(report);
    expect(text).toContain('| cold generate | 0.50 s / 1.00 s / 50 MiB | 2.00 s / 4.00 s / 200 MiB | 10.00 s / 20.00 s / 1000 MiB | 5.00 / 5.00 / 5.00 |');
    expect(text).toContain('| restgen cold CPU ÷ orval CPU | 0.50× | 0.50× | 0.50× |');
  });

  it('leaves out the growth column when 200 or 1,000 collections were not measured', () => {
    const report = buildReport([size(20, 1)], 1, 'not run', 1);
    expect(report.growth).toBeUndefined();
    expect(formatReport(report)).not.toContain('1,000 ÷ 200');
  });
});
