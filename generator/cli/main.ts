/**
 * @module The command line: parses arguments, runs a command, and turns its outcome into an exit code.
 * The only module (with `io.ts`) that touches the process. A command's module is imported only when that
 * command runs (all of them only for help), so `restgen --version` loads nothing but commander, and
 * `generate` never loads fastify or the diff engine.
 */
import type * as Commander from 'commander';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { restgenVersion } from '../package-root.ts';
import type { CliIO } from './io.ts';
import { colorEnabled, terminalText } from './style.ts';

// Required as the CommonJS package it is: importing it as ES module parses its sources for their exports first,
// a third more start-up time on every command (a build step's `restgen generate` that finds nothing to do included).
const { Command, CommanderError } = createRequire(import.meta.url)('commander') as typeof Commander;
type Command = Commander.Command;

type Register = (program: Command, io: CliIO) => void;

/** Each command's module, loaded on demand. `generate` and `check` share one. */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  generate: async () => (await import('./commands/generate.ts')).registerGenerateCommands,
  check: async () => (await import('./commands/generate.ts')).registerGenerateCommands,
  diff: async () => (await import('./commands/diff.ts')).registerDiffCommand,
  serve: async () => (await import('./commands/serve.ts')).registerServeCommand,
  init: async () => (await import('./commands/init.ts')).registerInitCommand,
  conformance: async () => (await import('./commands/conformance.ts')).registerConformanceCommand,
};

/** The command `argv` names (its first word that is not an option), when it is one restgen has. */
function commandOf(argv: readonly string[]): string | undefined {
  const word = argv.find((a) => !a.startsWith('-'));
  return word !== undefined && word in COMMANDS ? word : undefined;
}

/**
 * The V8 flags that make code run five times as long as V8 asks by default before its optimizing compilers
 * take it, by V8's major version (the flags were renamed after V8 11). V8 prints an error for a flag it does
 * not know, so a V8 outside this table is left as it is.
 */
export function tierUpFlags(v8Version: string): readonly string[] {
  const major = Number(v8Version.split('.')[0]);
  // Node 20 (V8 11.3): one bytecode budget for TurboFan.
  if (major === 11) return [`--interrupt-budget=${5 * 67584}`];
  // Node 22 to 25 (V8 12.4 to 14.1): invocation counts; Maglev (on by default from Node 24) waits as well.
  if (major >= 12 && major <= 14) return [`--invocation-count-for-turbofan=${5 * 3000}`, `--invocation-count-for-maglev=${5 * 400}`];
  return [];
}

/**
 * Tunes V8 for the command `argv` names, before it runs. A one-shot command (every one but `serve` and
 * `--watch`) runs for seconds, and most of what V8's optimizing compilers (on another thread: CPU time and
 * memory all the same) compile for it does not pay back in that time: code must run five times as long as
 * V8 asks by default ({@link tierUpFlags}) before it is optimized. Measured with the bench's synthetic API at
 * 200 collections, interleaved with the default: on Node 20, cold generate about 15% less CPU and 30 MB less
 * peak memory, `check` without a cache and one changed field about 25% less CPU (at 1,000 collections, cold
 * generate within 3%); on Node 22, cold generate and one changed field about 15% less CPU; on Node 24, one
 * changed field about 8% less, cold generate the same. (No optimizing compiler at all saved as much on the
 * short paths but doubled the 1,000-collection cold run.) A long-running server keeps V8's defaults.
 */
export function tuneEngine(argv: readonly string[]): void {
  if (commandOf(argv) === 'serve' || argv.includes('--watch')) return;
  for (const flag of tierUpFlags(process.versions.v8)) setFlagsFromString(flag);
}

/**
 * The command-line program with its global options and the commands `argv` needs registered: only the one it
 * names (none for `--version` alone), or all of them (for help, an unknown command, and the docs' CLI reference,
 * which reads every command and option from this program rather than from text).
 */
export async function createProgram(io: CliIO, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('restgen')
    .description('Versioned Fastify routes, zod validators, a typed client, OpenAPI and a diff report from a TypeScript DSL.')
    .version(restgenVersion(), '-v, --version', "print restgen's version")
    .option('-q, --quiet', 'print only errors and warnings')
    .option('--no-color', 'no colours, even on a terminal (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--debug', 'print stack traces of unexpected errors')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t), writeErr: (t) => io.err(t) });
  const wanted = commandOf(argv);
  // `--version` alone needs no command; help and unknown commands need them all (to list or suggest them).
  const versionOnly = !wanted && (argv.includes('-v') || argv.includes('--version'));
  const loaders = wanted ? [COMMANDS[wanted]!] : versionOnly ? [] : Object.values(COMMANDS);
  const registered = new Set<Register>();
  for (const register of await Promise.all(loaders.map((load) => load())))
    if (!registered.has(register)) {
      registered.add(register);
      register(program, io);
    }
  return program;
}

/** Runs restgen with `argv` (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[], overrides: Partial<CliIO> = {}): Promise<number> {
  let code = 0;
  const debug = argv.includes('--debug');
  const color = colorEnabled(process.stderr, process.env, argv);
  const io: CliIO = {
    out: (t) => void process.stdout.write(t),
    // Messages quote files and values a user (or an attacker) wrote: stderr gets them without control characters.
    err: (t) => void process.stderr.write(terminalText(t, color)),
    cwd: process.cwd(),
    debug,
    quiet: argv.includes('--quiet') || argv.includes('-q'),
    color,
    ...overrides,
    exit: (c) => void (code = Math.max(code, c)),
  };
  const program = await createProgram(io, argv);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.err(`restgen: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (debug && error instanceof Error && error.stack) io.err(error.stack + '\n');
    else io.err('run again with --debug for a stack trace, and please report it.\n');
    return 2;
  }
  return code;
}
