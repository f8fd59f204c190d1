/**
 * @module The bench's report: one Markdown table of every restgen path at every size (wall, CPU, peak
 * RSS; the `--watch` path per edit of one resident process), orval's cold run on the same API beside it, the ratio of restgen's cold CPU to orval's, and the
 * growth from 200 to 1,000 collections for every path (5.0 is linear). The same numbers go to JSON. Every
 * benchmark's table also goes into the docs' performance page (`docs/performance.md`), each between its markers, so
 * the page always holds the last run of each benchmark and nothing older.
 */
import os from 'node:os';
import type { Sample } from './measure.ts';
import { QUICK_RUNS, RESTGEN_PATHS, type SizeRun } from './restgen-paths.ts';
import { breakdownRows } from './stages.ts';

/** One size's measurements, restgen and orval. */
export interface SizeResult extends Omit<SizeRun, 'dir'> {
  /** In-process diff of v1 → v2, projection included, median milliseconds. */
  readonly diffMs: number;
}

/** Everything one bench run measured, as written to `.bench/bench-results.json`. */
export interface BenchReport {
  readonly machine: {
    readonly cores: number;
    readonly memoryGiB: number;
    readonly cpu: string;
    readonly node: string;
    /** 1-minute load average when the bench started and when it ended: above the core count, other work shared the CPU. */
    readonly load: readonly [number, number];
  };
  readonly runs: number;
  readonly orvalVersion: string;
  readonly sizes: readonly SizeResult[];
  /** Per path, the 1,000-collection figures divided by the 200-collection ones (when both were measured). */
  readonly growth?: Readonly<Record<string, { readonly wall: number; readonly cpu: number; readonly rss: number }>>;
}

const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const cell = (s: Sample): string => `${sec(s.wallMs)} / ${sec(s.cpuMs)} / ${Math.round(s.peakRssMiB)} MiB`;
const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** Assembles the report (machine, growth ratios) from the per-size results. */
export function buildReport(sizes: readonly SizeResult[], runs: number, orvalVersion: string, loadAtStart: number): BenchReport {
  const machine = {
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    load: [loadAtStart, os.loadavg()[0]!].map((l) => Math.round(l * 10) / 10) as [number, number],
  };
  const small = sizes.find((s) => s.collections === 200);
  const large = sizes.find((s) => s.collections === 1000);
  if (!small || !large) return { machine, runs, orvalVersion, sizes };
  const rows: [string, Sample | undefined, Sample | undefined][] = RESTGEN_PATHS.map((p) => [p, large.paths[p], small.paths[p]]);
  rows.push(['orval', large.orval, small.orval], ['floor', large.floor, small.floor]);
  const growth = Object.fromEntries(
    rows
      .filter((r): r is [string, Sample, Sample] => r[1] !== undefined && r[2] !== undefined)
      .map(([name, l, s]) => [name, { wall: ratio(l.wallMs, s.wallMs), cpu: ratio(l.cpuMs, s.cpuMs), rss: ratio(l.peakRssMiB, s.peakRssMiB) }]),
  );
  return { machine, runs, orvalVersion, sizes, growth };
}

/** The report as Markdown: the table for the performance page and the lines around it. */
export function formatReport(report: BenchReport): string {
  const { machine, sizes } = report;
  const out: string[] = [
    `restgen bench: synthetic API, 12 fields per collection, 3 versions; whole processes (without NODE_EXTRA_CA_CERTS), median of ${report.runs} runs (of ${report.runs * QUICK_RUNS} for one field changed, nothing changed and check).`,
    `machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}; load average ${machine.load[0]} at the start, ${machine.load[1]} at the end.`,
    'Cells: wall / CPU (user+sys) / peak RSS. "--watch": per edit of one `generate --watch` process (median of its edits after a warm-up edit; wall from the edit to the run\'s last line, the watcher\'s 80 ms wait for the end of a burst included; peak RSS of the process over all its edits).',
    'Cold runs (restgen, orval, the floor) start without the output an earlier run wrote: it is moved aside, not deleted, and deleted after the measurements (on ext4, creating files right after deleting thousands costs several times as much).',
    '',
  ];
  const head = sizes.map((s) => `${s.collections.toLocaleString('en')} collections (${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB)`);
  const growth = report.growth;
  out.push(`| path | ${head.join(' | ')}${growth ? ' | 1,000 ÷ 200 (wall / CPU / RSS) |' : ' |'}`);
  out.push(`|---|${sizes.map(() => '---|').join('')}${growth ? '---|' : ''}`);
  const growthCell = (name: string): string => {
    const g = growth?.[name];
    return growth ? ` ${g ? `${g.wall.toFixed(2)} / ${g.cpu.toFixed(2)} / ${g.rss.toFixed(2)}` : '–'} |` : '';
  };
  for (const p of RESTGEN_PATHS) out.push(`| ${p} | ${sizes.map((s) => cell(s.paths[p])).join(' | ')} |${growthCell(p)}`);
  if (sizes.some((s) => s.orval)) {
    out.push(
      `| orval ${report.orvalVersion}, cold (v3 client + zod, single, no prettier) | ${sizes.map((s) => (s.orval ? cell(s.orval) : '–')).join(' | ')} |${growthCell('orval')}`,
    );
    // The machine's speed drifts between runs; orval's cold run, run in turn with restgen's, is the yardstick that does not.
    const cpuRatio = (s: SizeResult): string => (s.ratios.coldToOrval === undefined ? '–' : `${s.ratios.coldToOrval.toFixed(2)}×`);
    out.push(`| restgen cold CPU ÷ orval cold CPU (median of paired runs) | ${sizes.map(cpuRatio).join(' | ')} |${growth ? ' |' : ''}`);
    const fieldRatio = (s: SizeResult): string => (s.ratios.oneFieldToOrval === undefined ? '–' : s.ratios.oneFieldToOrval.toFixed(3));
    out.push(`| one field changed CPU ÷ orval cold CPU (median of paired runs) | ${sizes.map(fieldRatio).join(' | ')} |${growth ? ' |' : ''}`);
  }
  out.push(`| \`node -e 0\` (Node's own start) | ${sizes.map((s) => cell(s.nodeStart)).join(' | ')} |${growth ? ' |' : ''}`);
  out.push(
    `| nothing changed CPU ÷ \`node -e 0\` CPU (median of paired runs) | ${sizes.map((s) => `${s.ratios.nothingToNode.toFixed(2)}×`).join(' | ')} |${growth ? ' |' : ''}`,
  );
  out.push(
    `| floor: node started, the API read, the same files and bytes written (mostly the kernel's file creation) | ${sizes.map((s) => cell(s.floor)).join(' | ')} |${growthCell('floor')}`,
  );
  out.push(
    '',
    'Where one field changed spends its time, per size (each figure the median of its own over the runs). CPU rows are user + system; the stages are wall time inside the run (`generate --debug`), which on this path is nearly all CPU.',
    '',
    `| one field changed | ${sizes.map((s) => `${s.collections.toLocaleString('en')} collections`).join(' | ')} |`,
    `|---|${sizes.map(() => '---|').join('')}`,
    ...breakdownRows(sizes.map((s) => s.oneField)),
  );
  out.push('', `in-process diff v1 → v2 (projection included), median: ${sizes.map((s) => `${s.collections}: ${s.diffMs} ms`).join(', ')}`);
  return out.join('\n');
}

/** The benchmarks of the performance page, in page order: id, heading, and the command that measures it alone. */
export const BENCHMARKS = [
  { id: 'generation', title: 'Generation', command: 'BENCH_ONLY_GENERATE=1 npm run bench' },
  { id: 'documents', title: 'OpenAPI document size', command: 'npx jiti bench/documents.ts' },
  { id: 'client-size', title: 'Client bundle size', command: 'npx jiti bench/client-size.ts' },
  { id: 'server', title: 'Server throughput', command: 'npx jiti bench/server.ts' },
  { id: 'startup', title: 'Server start-up', command: 'npx jiti bench/startup.ts' },
  { id: 'versions', title: 'Version resolution', command: 'npx jiti bench/versions.ts' },
  { id: 'serializer', title: 'Response shaping', command: 'npx jiti bench/server-serializer.ts' },
  { id: 'outbox', title: 'Memory outbox', command: 'node --expose-gc node_modules/jiti/lib/jiti-cli.mjs packages/runtime/bench/outbox.ts' },
  { id: 'instances', title: 'Several instances', command: 'npx jiti bench/instances.ts' },
  { id: 'fairness', title: 'Fair webhook delivery', command: 'npx jiti packages/runtime/bench/fairness.ts' },
  { id: 'uploads', title: 'File uploads', command: 'npx jiti bench/uploads.ts' },
  { id: 'stream', title: 'Event stream fan-out', command: 'node --expose-gc node_modules/jiti/lib/jiti-cli.mjs bench/stream.ts' },
] as const;

/** A benchmark's id on the performance page. */
export type BenchmarkId = (typeof BENCHMARKS)[number]['id'];

const start = (id: string): string => `<!-- bench:${id} -->`;
const end = (id: string): string => `<!-- /bench:${id} -->`;

/** The machine a run measured on, as one line of the page. */
export function machineLine(loadAtStart: number): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = `${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
  return `Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}; load average ${load}.`;
}

/** The performance page with no measurement yet: its text and an empty section per benchmark. */
export function emptyPerformancePage(): string {
  const sections = BENCHMARKS.flatMap((b) => [`## ${b.title}`, '', start(b.id), `Not measured yet: run \`${b.command}\`.`, end(b.id), '']);
  return [
    '# Performance',
    '',
    'Every table on this page is written by `npm run bench` (from a clone of the repository, after `npm ci`): each',
    'benchmark replaces its own table with the figures of its last run, with the command that measures it alone and',
    'the machine it ran on. Peers are measured in the same run and given as ratios, because absolute times drift with a',
    "shared machine's load while ratios of the same run do not. CPU time (user + system, all threads) is the figure to",
    'compare; wall time and peak resident memory are given beside it.',
    '',
    ...sections,
  ].join('\n');
}

/**
 * `page` with the section of benchmark `id` replaced by `body` (the command and the machine are added above it).
 * An empty page starts as the empty page; a page without this section's markers gets the section after the
 * section of the nearest benchmark before it in page order, else at its end.
 */
export function withBenchmark(page: string, id: BenchmarkId, body: string, machine: string): string {
  const bench = BENCHMARKS.find((b) => b.id === id)!;
  const known = page.trim() === '' ? emptyPerformancePage() : page;
  const base = known.includes(start(id)) && known.includes(end(id)) ? known : withSection(known, id);
  const from = base.indexOf(start(id)) + start(id).length;
  const to = base.indexOf(end(id));
  return `${base.slice(0, from)}\nCommand: \`${bench.command}\`.${machine ? ` ${machine}` : ''}\n\n${endTables(body.trim())}\n${base.slice(to)}`;
}

/** `page` with an empty section for benchmark `id`, in page order (see {@link withBenchmark}). */
function withSection(page: string, id: BenchmarkId): string {
  const at = BENCHMARKS.findIndex((b) => b.id === id);
  const section = `## ${BENCHMARKS[at]!.title}\n\n${start(id)}\n${end(id)}\n`;
  for (const earlier of BENCHMARKS.slice(0, at).reverse()) {
    const after = page.indexOf(`${end(earlier.id)}\n`);
    if (after >= 0 && page.includes(start(earlier.id))) {
      const cut = after + end(earlier.id).length + 1;
      return `${page.slice(0, cut)}\n${section}${page.slice(cut)}`;
    }
  }
  return `${page.trimEnd()}\n\n${section}`;
}

/** `markdown` with a blank line after every table, so a line printed right after one is not read as its last row. */
export function endTables(markdown: string): string {
  const lines = markdown.split('\n');
  return lines
    .map((line, i) => (line.startsWith('|') && i + 1 < lines.length && lines[i + 1] !== '' && !lines[i + 1]!.startsWith('|') ? `${line}\n` : line))
    .join('\n');
}
