/**
 * @module Colours on a terminal, through picocolors. Whether to colour is decided once per run, for the
 * stream the text goes to: `--no-color` on the command line wins, then `FORCE_COLOR` (`0` or `false` turns
 * colours off, anything else on), then `NO_COLOR` (any non-empty value turns them off), then whether the
 * stream is a terminal (and `TERM` is not `dumb`). Piped output and files never get escape codes unless forced.
 */
import pc from 'picocolors';
import type { CliIO } from './io.ts';

/** The colour functions a command uses; each returns its text unchanged when colours are off. */
export type Paint = ReturnType<typeof pc.createColors>;

/** Whether output to `stream` should be coloured, given the environment and the command line. */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): boolean {
  if (argv.includes('--no-color')) return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR']) return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** The colour functions for `io` (plain text when it has no colours). */
export function paintOf(io: CliIO): Paint {
  return pc.createColors(io.color === true);
}
