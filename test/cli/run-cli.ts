/**
 * @module Test helpers for the command line: run `main` in process with captured output, and make a
 * project folder that has restgen installed (a `node_modules/restgen` link to this repository, as
 * `npm install` of a local folder makes), so its `api.ts` and `restgen.config.ts` import `restgen` by name.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { main } from '../../generator/cli/main.ts';
import type { CliIO } from '../../generator/cli/io.ts';
import { writeFiles } from '../helpers/temp-api.ts';

/** The repository root (restgen's package root). */
export const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

/** What one run printed and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs restgen in process in `cwd` (no colours unless `io` says so). */
export async function runCli(cwd: string, argv: readonly string[], io: Partial<CliIO> = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, { cwd, color: false, out: (t) => void (out += t), err: (t) => void (err += t), ...io });
  return { code, out, err };
}

/** The built command line (`npm run build` first), as a user's `npx restgen` runs it. */
export const BIN = path.join(ROOT, 'bin/restgen.js');

/** Runs the built command line in `cwd` without colours: its exit code and what it printed on stderr. */
export async function runBin(cwd: string, ...argv: string[]): Promise<{ code: number; err: string }> {
  return promisify(execFile)(process.execPath, [BIN, '--no-color', ...argv], { cwd }).then(
    (r) => ({ code: 0, err: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, err: e.stderr }),
  );
}

/** Writes `files` into `dir` and links restgen into its node_modules. */
export function projectWithRestgen(dir: string, files: Record<string, string> = {}): string {
  writeFiles(dir, files);
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'restgen'), 'dir');
  return dir;
}

/** The 1-based column where `text` starts on line `line` of `source`. */
export function columnOf(source: string, line: number, text: string): number {
  const at = source.split('\n')[line - 1]!.indexOf(text);
  if (at < 0) throw new Error(`"${text}" is not on line ${line}`);
  return at + 1;
}
