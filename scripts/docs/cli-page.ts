/**
 * @module The reference page of the command line, read from the commander program the CLI runs
 * (`createProgram` in generator/cli/main.ts): every command with its arguments and options, their descriptions
 * and defaults as `--help` prints them. The notes around them (exit codes, the config file, each command's
 * behaviour) are hand-written Markdown in `cli-notes.md`, inserted at the markers it holds.
 */
import type { Command, Help, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { createProgram } from '../../generator/cli/main.ts';
import { code, generatedHeader, table } from './markdown.ts';

/** A command or option as the reference lists it. */
export interface CliEntry {
  /** The command's name (`generate`), or `restgen` for the global options. */
  readonly command: string;
  /** The option's flags as written (`-q, --quiet`, `--out <dir>`). */
  readonly flags: string;
  /** The long flag (`--quiet`), or the short one when there is none. */
  readonly name: string;
  readonly description: string;
}

/** The program with every command registered, as the CLI builds it for `--help`. Nothing is printed or run. */
export async function loadProgram(): Promise<Command> {
  const silent = { out: () => {}, err: () => {}, exit: () => {}, debug: false, cwd: process.cwd() };
  return createProgram(silent);
}

/** Every option of the program and of each command (help options included), for the page and the tests. */
export function cliEntries(program: Command): CliEntry[] {
  const help = program.createHelp();
  const options = (cmd: Command, name: string): CliEntry[] =>
    help
      .visibleOptions(cmd)
      .map((o: Option) => ({ command: name, flags: o.flags, name: o.long ?? o.short ?? o.flags, description: help.optionDescription(o) }));
  return [...options(program, 'restgen'), ...program.commands.flatMap((c) => options(c, c.name()))];
}

function argumentsTable(help: Help, cmd: Command): string {
  const args = help.visibleArguments(cmd);
  if (args.length === 0) return '';
  return table(
    ['argument', 'meaning'],
    args.map((a) => [code(help.argumentTerm(a)), help.argumentDescription(a)]),
  );
}

function optionsTable(help: Help, cmd: Command): string {
  return table(
    ['option', 'meaning'],
    help.visibleOptions(cmd).map((o) => [code(o.flags), help.optionDescription(o)]),
  );
}

/** A description as a sentence: capitalised, with a full stop. */
const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

const NOTES = new URL('./cli-notes.md', import.meta.url);

/** The hand-written notes, split at their `<!-- command: name -->` markers (`intro` before the first). */
function notes(): Map<string, string> {
  const text = readFileSync(NOTES, 'utf8');
  const out = new Map<string, string>();
  const parts = text.split(/^<!-- command: ([a-z]+) -->\n/m);
  out.set('intro', parts[0]!.trim());
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!.trim());
  return out;
}

/** The page's Markdown. */
export async function cliPage(): Promise<string> {
  const program = await loadProgram();
  const help = program.createHelp();
  const note = notes();
  const out: string[] = [
    generatedHeader('the commander program of generator/cli (createProgram) and scripts/docs/cli-notes.md'),
    '# Command line',
    '',
    note.get('intro') ?? '',
    '',
  ];
  out.push('## Global options', '', '```', `${help.commandUsage(program)}`, '```', '', optionsTable(help, program), '');
  for (const cmd of program.commands) {
    out.push(
      `## restgen ${cmd.name()}`,
      '',
      `${sentence(help.commandDescription(cmd))}`,
      '',
      '```',
      `restgen ${help.commandUsage(cmd).replace(/^restgen /, '')}`,
      '```',
      '',
    );
    const args = argumentsTable(help, cmd);
    if (args) out.push(args, '');
    out.push(optionsTable(help, cmd), '');
    const extra = note.get(cmd.name());
    if (extra) out.push(extra, '');
  }
  const unknown = [...note.keys()].filter((k) => k !== 'intro' && !program.commands.some((c) => c.name() === k));
  if (unknown.length) throw new Error(`cli-notes.md has notes for commands the CLI does not have: ${unknown.join(', ')}`);
  return out.join('\n');
}
