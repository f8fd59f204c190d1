/**
 * @module The `--watch` path: one `restgen generate --watch --debug` process on a synthetic API, edited again and
 * again (one field of one collection, to a value it never had, so every edit renders anew), measured from the
 * watch process itself: per edit, its CPU time (user + system, every thread, from `/proc/<pid>/stat` between the
 * edit and the end of the run plus a moment for the work a run leaves behind, such as garbage collection; where
 * there is no `/proc`, the run's own `process.cpuUsage()` figure that `--debug` prints), its resident memory
 * after the edit and its peak. Run alone for a longer look at memory:
 * `npx jiti bench/watch-edits.ts <collections> <edits>` (writes into `.bench/watch<collections>/`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.ts';
import { syntheticApi } from './synthetic.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/restgen.js');

/** One edit as the watch process saw it. */
export interface WatchEdit {
  /** CPU time of the whole process from the edit to the end of its run (and 150 ms after). */
  readonly cpuMs: number;
  /** The run's own CPU time, as `--debug` prints it. */
  readonly runCpuMs: number;
  /** From the edit to the run's last line (the watcher waits 80 ms for a burst of changes to end). */
  readonly wallMs: number;
  readonly rssMiB: number;
  readonly peakRssMiB: number;
}

/** What a watch session measured: every edit after the warm-up ones, and their medians. */
export interface WatchRun {
  readonly edits: readonly WatchEdit[];
  readonly medianCpuMs: number;
  readonly medianRunCpuMs: number;
  readonly medianWallMs: number;
  readonly peakRssMiB: number;
}

/** The synthetic API with the first collection's `notes` limited to `max` characters (a value no earlier edit had). */
export function editedApi(collections: number, max: number): string {
  const text = syntheticApi(collections);
  const field = 'notes: f.string().max(500)';
  const at = text.indexOf(field);
  return `${text.slice(0, at)}notes: f.string().max(${max})${text.slice(at + field.length)}`;
}

/** The process's CPU time so far (user + system), or undefined where there is no `/proc`. */
function procCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    // Not Linux: the run's own figure stands in.
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `generate --watch` in `dir` (which holds `api.ts`), makes `warmup + edits` edits, and measures the last
 * `edits`. The folder's output need not be up to date: the session's first run brings it there.
 */
export async function measureWatch(dir: string, collections: number, edits: number, warmup = 1, onEdit?: (i: number, e: WatchEdit) => void): Promise<WatchRun> {
  const api = path.join(dir, 'api.ts');
  const child = spawn(process.execPath, [BIN, 'generate', '--watch', '--debug', 'api.ts'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const until = async (re: RegExp, from: number): Promise<RegExpExecArray> => {
    const started = Date.now();
    for (;;) {
      const m = re.exec(log.slice(from));
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`restgen generate --watch exited:\n${log.slice(-3000)}`);
      if (Date.now() - started > 120_000) throw new Error(`timed out waiting for ${re} in:\n${log.slice(-3000)}`);
      await sleep(10);
    }
  };
  const measured: WatchEdit[] = [];
  try {
    await until(/watching/, 0);
    for (let i = 0; i < warmup + edits; i++) {
      await sleep(300);
      const from = log.length;
      const before = procCpuMs(child.pid!);
      const started = performance.now();
      writeFileSync(api, editedApi(collections, 1000 + i));
      const debug = await until(/cpu: (\d+) ms; rss: (\d+) MiB; peak rss: (\d+) MiB/, from);
      await until(/ written, |up to date/, from);
      const wallMs = performance.now() - started;
      if (!/ written, /.test(log.slice(from))) throw new Error(`edit ${i} wrote nothing:\n${log.slice(from)}`);
      await sleep(150);
      const after = procCpuMs(child.pid!);
      const runCpuMs = Number(debug[1]);
      const edit = {
        cpuMs: before !== undefined && after !== undefined ? after - before : runCpuMs,
        runCpuMs,
        wallMs,
        rssMiB: Number(debug[2]),
        peakRssMiB: Number(debug[3]),
      };
      onEdit?.(i, edit);
      if (i >= warmup) measured.push(edit);
    }
  } finally {
    child.kill('SIGINT');
  }
  return {
    edits: measured,
    medianCpuMs: median(measured.map((e) => e.cpuMs)),
    medianRunCpuMs: median(measured.map((e) => e.runCpuMs)),
    medianWallMs: median(measured.map((e) => e.wallMs)),
    peakRssMiB: Math.max(...measured.map((e) => e.peakRssMiB)),
  };
}

/** Alone: a fresh synthetic API, `edits` edits after one warm-up, every edit printed. */
async function main(): Promise<void> {
  const collections = Number(process.argv[2] ?? 200);
  const edits = Number(process.argv[3] ?? 30);
  const dir = path.join(ROOT, '.bench', `watch${collections}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  writeFileSync(path.join(dir, 'api.ts'), syntheticApi(collections));
  const run = await measureWatch(dir, collections, edits, 1, (i, e) =>
    console.log(`edit ${String(i).padStart(3)}: cpu ${e.cpuMs} ms (run ${e.runCpuMs} ms), rss ${e.rssMiB} MiB, peak ${e.peakRssMiB} MiB`),
  );
  console.log(`median cpu ${run.medianCpuMs} ms (run ${run.medianRunCpuMs} ms), peak rss ${run.peakRssMiB} MiB over ${run.edits.length} edits`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
