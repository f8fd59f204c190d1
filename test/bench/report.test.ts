/**
 * A benchmark added to `npm run bench` gets its section on the performance page where the page order puts it
 * (after the section of the benchmark before it), not at the end of the page, and the page keeps the rest.
 */
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, withBenchmark } from '../../bench/report.ts';

const section = (id: string, title: string, body: string) => `## ${title}\n\n<!-- bench:${id} -->\n${body}\n<!-- /bench:${id} -->\n`;

describe('withBenchmark', () => {
  it("puts a benchmark's new section after the section of the benchmark before it", () => {
    const server = BENCHMARKS.findIndex((b) => b.id === 'server');
    expect(BENCHMARKS[server + 1]?.id).toBe('startup');
    const page = ['# Performance\n', section('server', 'Server throughput', 'S'), section('outbox', 'Memory outbox', 'O')].join('\n');
    const next = withBenchmark(page, 'startup', '| cpu |\n|---|\n| 1.05x |', 'Machine: test.');
    expect(next).toBe(
      [
        '# Performance\n',
        section('server', 'Server throughput', 'S'),
        section('startup', 'Server start-up', 'Command: `npx jiti bench/startup.ts`. Machine: test.\n\n| cpu |\n|---|\n| 1.05x |'),
        section('outbox', 'Memory outbox', 'O'),
      ].join('\n'),
    );
  });

  it('puts it at the end of a page that holds none of the benchmarks before it', () => {
    const next = withBenchmark('# Performance\n\nNotes.\n', 'startup', '| x |', '');
    expect(next).toBe(`# Performance\n\nNotes.\n\n${section('startup', 'Server start-up', 'Command: `npx jiti bench/startup.ts`.\n\n| x |')}`);
  });
});
