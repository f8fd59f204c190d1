/**
 * @module Runs a command as a whole Node process, the way a build step runs it, and measures it: wall
 * time from the outside, CPU time (user + system, every thread) and peak resident memory from the inside
 * (see `usage-on-exit.mjs`). Medians over runs are taken per measure.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./usage-on-exit.mjs', import.meta.url));

/** One measured process. */
export interface Sample {
  readonly wallMs: number;
  /** User + system CPU time of the process. */
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

/** How a measured process is run. */
export interface RunSpec {
  /** The Node script and its arguments (run with `process.execPath`). */
  readonly args: readonly string[];
  readonly cwd: string;
  /** The exit code that counts as success. */
  readonly expectCode?: number;
  /** Output (stdout + stderr) the run must print, proving it took the path being measured. */
  readonly expectOutput?: RegExp;
  /** Receives the output (stdout + stderr) of each successful run: figures the process prints of itself. */
  readonly onOutput?: (output: string) => void;
}

/**
 * The environment of a measured process: the bench's own, without `NODE_EXTRA_CA_CERTS`. The machines this
 * project runs on set it to the system's whole CA bundle, which node then parses at every start (`node -e 0`
 * takes 0.05–0.08 s of CPU with it and 0.02 s without); nothing measured opens a TLS connection, and a user's
 * build step does not pay for it. restgen, orval and the floor run alike.
 */
export function measuredEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env;
  return env;
}

/** Runs `spec` once and measures it; throws (with the process's output) when it exits with another code. */
export function measureOnce(spec: RunSpec): Sample {
  const usageFile = path.join(os.tmpdir(), `restgen-bench-usage-${process.pid}.json`);
  rmSync(usageFile, { force: true });
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', PRELOAD, ...spec.args], {
    cwd: spec.cwd,
    env: { ...measuredEnv(), RESTGEN_BENCH_USAGE: usageFile },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wallMs = performance.now() - started;
  const expected = spec.expectCode ?? 0;
  const output = `${child.stdout ?? ''}${child.stderr ?? ''}`;
  if (child.status !== expected || (spec.expectOutput && !spec.expectOutput.test(output)))
    throw new Error(
      `${spec.args.join(' ')} exited ${child.status ?? child.signal} (expected ${expected}${spec.expectOutput ? `, output matching ${spec.expectOutput}` : ''}):\n${output.slice(-4000)}`,
    );
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { userUs: number; systemUs: number; maxRssKiB: number };
  rmSync(usageFile, { force: true });
  spec.onOutput?.(output);
  return { wallMs, cpuMs: (usage.userUs + usage.systemUs) / 1000, peakRssMiB: usage.maxRssKiB / 1024 };
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Per-measure medians of several samples (each measure on its own, so they need not come from one run). */
export function medianSample(samples: readonly Sample[]): Sample {
  return {
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    peakRssMiB: median(samples.map((s) => s.peakRssMiB)),
  };
}

/** One side of a pair of measured processes: how to prepare a run, and the run. */
export interface Side {
  readonly prepare: () => void;
  readonly spec: RunSpec;
}

/**
 * Runs `a` and `b` in turn, `runs` times each (A B A B ...), and returns each side's median sample and the median of
 * the pairs' CPU ratios (A ÷ B): pairing keeps a ratio meaningful while the machine's speed drifts.
 */
export function measurePairs(runs: number, a: Side, b: Side): { readonly a: Sample; readonly b: Sample; readonly cpuRatio: number } {
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    a.prepare();
    as.push(measureOnce(a.spec));
    b.prepare();
    bs.push(measureOnce(b.spec));
  }
  return { a: medianSample(as), b: medianSample(bs), cpuRatio: median(as.map((s, i) => s.cpuMs / bs[i]!.cpuMs)) };
}

/** Runs `prepare` then `spec`, `runs` times, and returns the median sample. */
export function measure(runs: number, prepare: () => void, spec: RunSpec): Sample {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    prepare();
    samples.push(measureOnce(spec));
  }
  return medianSample(samples);
}
