/**
 * The bench measures what it says: a child's CPU time (not its wall time) and its peak resident memory,
 * it refuses a run that did not take the path being measured, and the report's growth ratios divide the
 * 1,000-collection figures by the 200-collection ones.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { breakdownOf, breakdownRows, readRunFigures, STAGES, type Stage } from '../../bench/stages.ts';
import { measure, measureOnce, measurePairs, median } from '../../bench/measure.ts';
import { buildReport, formatReport, type SizeResult } from '../../bench/report.ts';
import { emptyTrash, moveAside, packFloor, RESTGEN_PATHS } from '../../bench/restgen-paths.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('bench-measure');
afterAll(tmp.cleanup);

function script(name: string, source: string): string {
  const file = path.join(tmp.dir, name);
  writeFileSync(file, source);
  return file;
}

describe('measureOnce', () => {
  it('reports CPU time spent and peak memory held, apart from time spent waiting', () => {
    // Busy until it has used 200 ms of CPU (its own count, so the machine's load does not matter), holding 200 MiB.
    const busy = script(
      'busy.mjs',
      `const a = Buffer.alloc(200 * 2 ** 20, 1); const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < 200); console.log(a[0]);`,
    );
    // Waits 400 ms, then writes down how long it has lived.
    const lived = path.join(tmp.dir, 'lived.txt');
    const idle = script(
      'idle.mjs',
      `import { writeFileSync } from 'node:fs'; setTimeout(() => writeFileSync(${JSON.stringify(lived)}, String(performance.now())), 400);`,
    );
    const b = measureOnce({ args: [busy], cwd: tmp.dir, expectOutput: /^1$/m });
    expect(b.cpuMs).toBeGreaterThanOrEqual(200);
    expect(b.peakRssMiB).toBeGreaterThan(200);
    const i = measureOnce({ args: [idle], cwd: tmp.dir });
    // Wall time is taken from outside: it holds the process's whole life.
    expect(i.wallMs).toBeGreaterThanOrEqual(Number(readFileSync(lived, 'utf8')));
    // The 400 ms it waited are no CPU time: a measure that counted them would report 400 ms more than a node
    // process doing nothing, measured in the same run (so the machine's speed does not decide).
    const nothing = measureOnce({ args: [script('nothing.mjs', '')], cwd: tmp.dir });
    expect(i.cpuMs).toBeLessThan(nothing.cpuMs + 200);
    expect(i.peakRssMiB).toBeLessThan(150);
  });

  it("reports the child's own peak memory, not what the measuring process held when it started the child", () => {
    // On Linux, getrusage's maxrss of a process started by fork and exec includes the forked copy of its parent.
    const held = Buffer.alloc(256 * 2 ** 20, 1);
    const nothing = measureOnce({ args: [script('nothing-again.mjs', '')], cwd: tmp.dir });
    expect(held[0]).toBe(1);
    expect(nothing.peakRssMiB).toBeLessThan(150);
  });

  it('throws, with the output, on an unexpected exit code or output', () => {
    const failing = script('failing.mjs', `console.error('broken on purpose'); process.exitCode = 3;`);
    expect(() => measureOnce({ args: [failing], cwd: tmp.dir })).toThrow(/exited 3 \(expected 0\):\nbroken on purpose/);
    expect(measureOnce({ args: [failing], cwd: tmp.dir, expectCode: 3 }).cpuMs).toBeGreaterThan(0);
    expect(() => measureOnce({ args: [failing], cwd: tmp.dir, expectCode: 3, expectOutput: /up to date/ })).toThrow(/output matching/);
  });

  it("runs the measured process without the machine's NODE_EXTRA_CA_CERTS (node would parse a CA bundle at start)", () => {
    const before = process.env['NODE_EXTRA_CA_CERTS'];
    process.env['NODE_EXTRA_CA_CERTS'] = '/etc/ssl/certs/ca-certificates.crt';
    try {
      const env = script('env.mjs', `console.log('certs:' + (process.env.NODE_EXTRA_CA_CERTS ?? 'none'), 'home:' + (process.env.HOME ? 'set' : 'unset'));`);
      expect(() => measureOnce({ args: [env], cwd: tmp.dir, expectOutput: /^certs:none home:set$/m })).not.toThrow();
    } finally {
      if (before === undefined) delete process.env['NODE_EXTRA_CA_CERTS'];
      else process.env['NODE_EXTRA_CA_CERTS'] = before;
    }
  });

  it('runs the preparation before every run and takes medians', () => {
    const counter = path.join(tmp.dir, 'count.txt');
    writeFileSync(counter, '');
    const noop = script('noop.mjs', '');
    measure(3, () => writeFileSync(counter, 'x', { flag: 'a' }), { args: [noop], cwd: tmp.dir });
    expect(readFileSync(counter, 'utf8')).toBe('xxx');
    expect(median([5, 1, 3])).toBe(3);
  });

  it('runs two commands in turn and takes the median of the ratios of the pairs', () => {
    const order = path.join(tmp.dir, 'order.txt');
    writeFileSync(order, '');
    // A uses 120 ms of CPU more than B: their ratio is above 1 whatever the machine's speed.
    const busy = script('busy-a.mjs', `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < 150);`);
    const noop = script('noop-b.mjs', '');
    const paired = measurePairs(
      3,
      { prepare: () => writeFileSync(order, 'A', { flag: 'a' }), spec: { args: [busy], cwd: tmp.dir } },
      { prepare: () => writeFileSync(order, 'B', { flag: 'a' }), spec: { args: [noop], cwd: tmp.dir } },
    );
    expect(readFileSync(order, 'utf8')).toBe('ABABAB');
    expect(paired.a.cpuMs).toBeGreaterThanOrEqual(150);
    expect(paired.cpuRatio).toBeGreaterThan(1);
  });
});

describe('the physical floor', () => {
  it('writes the same files and bytes as the folder it was packed from', () => {
    const from = path.join(tmp.dir, 'floor-from');
    const files = { 'a.ts': 'export const a = 1;\n', 'v1/b.ts': 'ü'.repeat(5000), 'v1/deep/c.json': '{}\n', 'empty.md': '' };
    writeFiles(from, files);
    const [blob, index, out] = ['floor.blob', 'floor-index.json', 'floor-out'].map((n) => path.join(tmp.dir, n));
    packFloor(from, blob!, index!);
    const api = script('api.ts', 'export default {};\n');
    measureOnce({ args: [new URL('../../bench/floor.mjs', import.meta.url).pathname, api, blob!, index!, out!], cwd: tmp.dir });
    for (const [rel, text] of Object.entries(files)) expect(readFileSync(path.join(out!, rel), 'utf8')).toBe(text);
  });
});

describe('preparing a cold run', () => {
  it('moves the output of an earlier run aside whole, and deletes it only when the trash is emptied', () => {
    const out = path.join(tmp.dir, 'cold', 'generated');
    const trash = path.join(tmp.dir, 'cold', 'trash');
    writeFiles(out, { 'a.ts': 'a\n', 'v1/b.ts': 'b\n' });
    moveAside(out, trash);
    expect(existsSync(out)).toBe(false);
    const [moved] = readdirSync(trash);
    expect(readFileSync(path.join(trash, moved!, 'v1/b.ts'), 'utf8')).toBe('b\n');
    // Nothing there: nothing to move.
    moveAside(out, trash);
    expect(readdirSync(trash)).toEqual([moved]);
    emptyTrash(trash);
    expect(existsSync(trash)).toBe(false);
  });
});

const NO_STAGES = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;

describe('the report', () => {
  const sample = (ms: number, mib: number) => ({ wallMs: ms, cpuMs: ms * 2, peakRssMiB: mib });
  const size = (collections: number, k: number): SizeResult => ({
    collections,
    files: collections * 7,
    bytes: collections * 67_000,
    paths: Object.fromEntries(RESTGEN_PATHS.map((p) => [p, sample(1000 * k, 100 * k)])) as SizeResult['paths'],
    orval: sample(2000 * k, 200),
    nodeStart: sample(20, 40),
    ratios: { coldToOrval: 0.5, oneFieldToOrval: 0.042, nothingToNode: 3.5 },
    floor: sample(100 * k, 40),
    oneField: { processCpuMs: 400 * k, nodeStartCpuMs: 25, runCpuMs: 300 * k, stagesMs: { ...NO_STAGES, 'load, build, check': 100 * k, write: 20 * k } },
    diffMs: k,
  });

  it("divides the 1,000-collection figures by the 200-collection ones, and restgen's cold CPU by orval's", () => {
    const report = buildReport([size(20, 0.5), size(200, 2), size(1000, 10)], 3, '8.38.0', 1);
    expect(report.growth?.['cold generate']).toEqual({ wall: 5, cpu: 5, rss: 5 });
    expect(report.growth?.['orval']).toEqual({ wall: 5, cpu: 5, rss: 1 });
    const text = formatReport(report);
    expect(text).toContain('| cold generate | 0.50 s / 1.00 s / 50 MiB | 2.00 s / 4.00 s / 200 MiB | 10.00 s / 20.00 s / 1000 MiB | 5.00 / 5.00 / 5.00 |');
    // The ratios are those of paired runs, as measured (not the ratios of the medians).
    expect(text).toContain('| restgen cold CPU ÷ orval cold CPU (median of paired runs) | 0.50× | 0.50× | 0.50× |');
    expect(text).toContain('| one field changed CPU ÷ orval cold CPU (median of paired runs) | 0.042 | 0.042 | 0.042 |');
    expect(text).toContain('| nothing changed CPU ÷ `node -e 0` CPU (median of paired runs) | 3.50× | 3.50× | 3.50× |');
    // The physical floor beside restgen's paths, measured in the same run.
    expect(report.growth?.['floor']).toEqual({ wall: 5, cpu: 5, rss: 1 });
    expect(text).toContain(
      "| floor: node started, the API read, the same files and bytes written (mostly the kernel's file creation) | 0.05 s / 0.10 s / 40 MiB |",
    );
    // Where one field changed spends its time: restgen's start-up is what the process spent outside Node's start-up and the run.
    expect(text).toContain(
      "| restgen's start-up and exit (its modules, the command line): the process's CPU less the run's and Node's | 25 ms | 175 ms | 975 ms |",
    );
    expect(text).toContain('| stage: load, build, check, wall | 50 ms | 200 ms | 1000 ms |');
    expect(text).toContain('| stage: lock, wall | 0 ms | 0 ms | 0 ms |');
  });

  it('leaves out the growth column when 200 or 1,000 collections were not measured', () => {
    const report = buildReport([size(20, 1)], 1, 'not run', 1);
    expect(report.growth).toBeUndefined();
    expect(formatReport(report)).not.toContain('1,000 ÷ 200');
  });
});

describe('where a one-field run spends its time', () => {
  // What `generate --debug` prints of a one-field run (the line as restgen writes it).
  const debugLine = (cpu: number, load: number) =>
    `timings (ms): {"up-to-date check":10,"load, build, check":${load},"lock":37,"emit":32,"compare":53,"format CHANGES.md":16,"format client":4,"format openapi":29,"format server":8,"format v3":6,"write":37}; renders: {"hits":202,"misses":5}; cpu: ${cpu} ms; rss: 111 MiB; peak rss: 122 MiB\n6 written, 0 removed: 1425 files in generated (360 ms)\n`;

  it("reads the run's stages (the format laps summed) and its CPU, and takes each figure's median", () => {
    const runs = [debugLine(408, 126), debugLine(367, 115), debugLine(386, 130)].map(readRunFigures);
    expect(runs[0]).toEqual({
      stagesMs: { 'up-to-date check': 10, 'load, build, check': 126, lock: 37, emit: 32, compare: 53, 'render and format': 63, write: 37 },
      runCpuMs: 408,
    });
    const breakdown = breakdownOf(runs, 470, 25);
    expect(breakdown.runCpuMs).toBe(386);
    expect(breakdown.stagesMs['load, build, check']).toBe(126);
    expect(breakdownRows([breakdown])[2]).toBe(
      "| restgen's start-up and exit (its modules, the command line): the process's CPU less the run's and Node's | 59 ms |",
    );
  });

  it('refuses output without the line, and a stage it does not list', () => {
    expect(() => readRunFigures('6 written, 0 removed')).toThrow(/no timings line/);
    expect(() => readRunFigures('timings (ms): {"sing":3}; renders: {}; cpu: 5 ms')).toThrow(/does not list: sing/);
  });
});
