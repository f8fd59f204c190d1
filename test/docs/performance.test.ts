/**
 * The performance page is written by `npm run bench`: each benchmark replaces only its own section (between its
 * markers) with its table, the command that measures it and the machine, so the page holds one current table per
 * benchmark and no history.
 */
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, emptyPerformancePage, withBenchmark } from '../../bench/report.ts';
import { read } from './pages.ts';

describe('the performance page', () => {
  it('has a section per benchmark, between its markers', () => {
    const page = read('docs/performance.md');
    for (const b of BENCHMARKS) {
      expect(page, b.id).toContain(`## ${b.title}`);
      expect(page.indexOf(`<!-- bench:${b.id} -->`), b.id).toBeGreaterThanOrEqual(0);
      expect(page.indexOf(`<!-- bench:${b.id} -->`), b.id).toBeLessThan(page.indexOf(`<!-- /bench:${b.id} -->`));
    }
  });

  it("is rewritten one benchmark at a time: a run replaces its section's table and keeps the others", () => {
    const first = withBenchmark(emptyPerformancePage(), 'server', '| a | b |\n|---|---|\n| 1 | 2 |', 'Machine: test.');
    expect(first).toContain('Command: `npx jiti bench/server.ts`. Machine: test.\n\n| a | b |');
    const second = withBenchmark(
      withBenchmark(first, 'outbox', '| x |\n|---|\n| 9 |', 'Machine: other.'),
      'server',
      '| a | b |\n|---|---|\n| 3 | 4 |',
      'Machine: test.',
    );
    expect(second).toContain('| 3 | 4 |');
    expect(second).not.toContain('| 1 | 2 |');
    expect(second).toContain('| 9 |');
    expect(second.match(/<!-- bench:server -->/g)).toHaveLength(1);
  });

  it('ends every table before the line printed after it', () => {
    const page = withBenchmark(emptyPerformancePage(), 'server', '| a |\n|---|\n| 1 |\nv3: 1.01x', '');
    expect(page).toContain('| 1 |\n\nv3: 1.01x');
  });

  it('gets a section it lacks at its end, keeping what it holds', () => {
    const page = withBenchmark('# Performance\n\nNotes.\n', 'generation', '| g |', '');
    expect(page).toMatch(
      /^# Performance\n\nNotes\.\n\n## Generation\n\n<!-- bench:generation -->\nCommand: `BENCH_ONLY_GENERATE=1 npm run bench`\.\n\n\| g \|\n<!-- \/bench:generation -->/,
    );
  });
});
