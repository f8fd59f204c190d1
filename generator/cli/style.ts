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

/** C0 and C1 control characters but tab and newline, and (kept when colours are on) colour sequences. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const CONTROLS = /\x1b\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * `text` made safe for a terminal: control characters other than tab and newline are shown escaped (`\x1b`), so a
 * file name, a lock file or an error quoted in a message cannot move the cursor, clear the screen, retitle the
 * window or hide text. Colour sequences are kept when colours are on (restgen's own; a quoted one can only colour).
 */
export function terminalText(text: string, color: boolean): string {
  // A colour sequence is one escape character and printable text: with colours off, only its escape is shown escaped.
  return text.replace(CONTROLS, (m) => (m.length > 1 && color ? m : `\\x${m.charCodeAt(0).toString(16).padStart(2, '0')}${m.slice(1)}`));
}
