// `npm test`: every check, in stages whose independent steps run side by side, so the two cores CI has are both busy
// while a single-threaded step (the linter's report, the structure check, a vitest run's start) would leave one idle.
//
//   1. build (dist/ of restgen and its packages), lint, structure;
//   2. the type check, and the examples the tests share generated once (test/helpers/shared-output.ts: every later
//      vitest run finds them up to date and writes nothing, so the runs of stage 3 can start side by side);
//   3. the tests on the other Node lines and on the oldest zod (one vitest worker each), the check that the
//      committed examples are up to date;
//   4. the whole vitest suite (two workers), its output as it runs, its summary line last but for this script's table.
//
// Each step's output is printed whole when it ends (steps running side by side do not interleave), a failed step's
// included. A stage runs only when every step before it passed; the exit code is 1 when any step failed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Step {
  readonly name: string;
  readonly command: readonly string[];
  /** Print its output while it runs rather than when it ends (the only step of its stage). */
  readonly live?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
}

const npmRun = (script: string): readonly string[] => ['npm', 'run', '--silent', script];
const ONE_WORKER = { VITEST_MAX_WORKERS: '1' };

const STAGES: readonly (readonly Step[])[] = [
  [
    { name: 'build', command: npmRun('build') },
    { name: 'lint', command: npmRun('lint') },
    { name: 'structure', command: npmRun('structure') },
  ],
  [
    { name: 'typecheck', command: npmRun('typecheck') },
    // vitest's global setup generates them (the examples import restgen, hence after the build); the smoke test is
    // the quickest file to run with it.
    { name: 'shared examples', command: ['npx', 'vitest', 'run', 'test/smoke.test.ts'] },
  ],
  [
    { name: 'Node lines', command: npmRun('test:node-lines'), env: ONE_WORKER },
    { name: 'zod floor', command: npmRun('test:zod-floor'), env: ONE_WORKER },
    { name: 'examples up to date', command: npmRun('check') },
  ],
  [{ name: 'vitest', command: ['npx', 'vitest', 'run'], live: true }],
];

function run(step: Step): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [command, ...args] = step.command as [string, ...string[]];
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...step.env },
      stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const end = (ok: boolean, why?: string) => {
      const seconds = (performance.now() - started) / 1000;
      if (!step.live) {
        const text = Buffer.concat(chunks).toString('utf8').trimEnd();
        process.stdout.write(`\n── ${step.name}: ${ok ? 'passed' : 'FAILED'} (${seconds.toFixed(1)} s)\n${text ? `${text}\n` : ''}${why ? `${why}\n` : ''}`);
      }
      resolve({ name: step.name, ok, seconds });
    };
    child.on('error', (error) => end(false, `could not start ${step.command.join(' ')}: ${error.message}`));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? undefined : `${step.command.join(' ')} exited ${signal ?? code}`));
  });
}

const outcomes: Outcome[] = [];
let failed = false;
for (const stage of STAGES) {
  outcomes.push(...(await Promise.all(stage.map(run))));
  failed = outcomes.some((o) => !o.ok);
  if (failed) break;
}
const skipped = STAGES.flat().filter((step) => !outcomes.some((o) => o.name === step.name));
process.stdout.write(
  `\nnpm test: ${outcomes.map((o) => `${o.name} ${o.ok ? 'passed' : 'FAILED'} (${o.seconds.toFixed(0)} s)`).join(', ')}${
    skipped.length > 0 ? `; not run after the failure: ${skipped.map((s) => s.name).join(', ')}` : ''
  }\n`,
);
process.exit(failed ? 1 : 0);
