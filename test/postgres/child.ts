/**
 * @module The shop on PostgreSQL in a child process (test/postgres/fixtures/shop-child.ts), bundled once per test
 * file with `@restgen/runtime` as this repository's sources (see `helpers/bundle-node.ts`) and run with plain node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { bundleForNode } from '../helpers/bundle-node.ts';

const FIXTURE = new URL('./fixtures/shop-child.ts', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
let bundled: Promise<string> | undefined;

/** A started child: its URL, how it ended, and a way to stop it. */
export interface Child {
  readonly url: string;
  readonly process: ChildProcess;
  /** The signal or exit code it ended with. */
  readonly exited: Promise<NodeJS.Signals | number | null>;
  output(): string;
  /** SIGTERM, then waits for it to end. */
  stop(): Promise<NodeJS.Signals | number | null>;
}

/** Starts the shop child with `env` and resolves once it listens. */
export async function startChild(env: Readonly<Record<string, string>>): Promise<Child> {
  const script = await (bundled ??= bundleForNode(FIXTURE, 'postgres-shop-child'));
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url)
        resolve({
          url,
          process: child,
          exited,
          output: () => output,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
    });
    void exited.then((how) => reject(new Error(`the shop child ended (${String(how)}) before listening:\n${output}`)));
  });
}
