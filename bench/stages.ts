/**
 * @module Where a one-field regeneration spends its time, from what `generate --debug` prints of its own run: the
 * wall time of each stage inside the run and the run's CPU time. With the whole process's CPU time (measured from
 * outside) and Node's own start-up (`node -e 0`, measured in the same bench run) they split the process into Node's
 * start-up, restgen's own start-up and exit (its modules, the command line), and the stages of the run.
 */
import { median } from './measure.ts';

/** A run's stages as the performance page lists them; the `format <folder>` laps are summed into one. */
export const STAGES = ['up-to-date check', 'load, build, check', 'lock', 'emit', 'compare', 'render and format', 'write'] as const;

/** One of {@link STAGES}. */
export type Stage = (typeof STAGES)[number];

/** What one `generate --debug` run said of itself. */
export interface RunFigures {
  /** Wall milliseconds per stage, inside the run. */
  readonly stagesMs: Readonly<Record<Stage, number>>;
  /** CPU milliseconds of the run (user + system), from its start to its result. */
  readonly runCpuMs: number;
}

/** Reads the `timings (ms): {...}; ...; cpu: N ms` line that `generate --debug` prints. */
export function readRunFigures(output: string): RunFigures {
  const timings = /timings \(ms\): (\{[^}]*\});/.exec(output);
  const cpu = /; cpu: (\d+) ms/.exec(output);
  if (!timings || !cpu) throw new Error(`generate --debug printed no timings line:\n${output.slice(-2000)}`);
  const stagesMs = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  for (const [lap, ms] of Object.entries(JSON.parse(timings[1]!) as Record<string, number>)) {
    const stage = lap.startsWith('format ') ? 'render and format' : lap;
    if (!(STAGES as readonly string[]).includes(stage)) throw new Error(`generate --debug timed a stage the bench does not list: ${lap}`);
    stagesMs[stage as Stage] += ms;
  }
  return { stagesMs, runCpuMs: Number(cpu[1]) };
}

/** A path's time split up; every figure is the median of its own over the runs. */
export interface Breakdown {
  /** CPU of the whole process. */
  readonly processCpuMs: number;
  /** CPU of `node -e 0`. */
  readonly nodeStartCpuMs: number;
  /** CPU of the run itself (`--debug`'s figure). */
  readonly runCpuMs: number;
  /** Wall milliseconds per stage inside the run. */
  readonly stagesMs: Readonly<Record<Stage, number>>;
}

/** The medians of `runs`, with the process's and Node's start-up CPU measured beside them. */
export function breakdownOf(runs: readonly RunFigures[], processCpuMs: number, nodeStartCpuMs: number): Breakdown {
  if (runs.length === 0) throw new Error('no run to break down');
  return {
    processCpuMs,
    nodeStartCpuMs,
    runCpuMs: median(runs.map((r) => r.runCpuMs)),
    stagesMs: Object.fromEntries(STAGES.map((s) => [s, median(runs.map((r) => r.stagesMs[s]))])) as Record<Stage, number>,
  };
}

/** The rows of the page's table for `breakdowns` (one column each): CPU first, then the stages' wall time. */
export function breakdownRows(breakdowns: readonly Breakdown[]): string[] {
  const ms = (n: number): string => `${Math.round(n)} ms`;
  const row = (label: string, of: (b: Breakdown) => number): string => `| ${label} | ${breakdowns.map((b) => ms(of(b))).join(' | ')} |`;
  return [
    row('whole process, CPU', (b) => b.processCpuMs),
    row("Node's own start-up (`node -e 0`), CPU", (b) => b.nodeStartCpuMs),
    row(
      "restgen's start-up and exit (its modules, the command line): the process's CPU less the run's and Node's",
      (b) => b.processCpuMs - b.runCpuMs - b.nodeStartCpuMs,
    ),
    row('the run, CPU', (b) => b.runCpuMs),
    ...STAGES.map((s) => row(`stage: ${s}, wall`, (b) => b.stagesMs[s])),
  ];
}
