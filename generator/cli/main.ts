/**
 * @module The command line: parses arguments, runs a command, and turns its outcome into an exit code.
 * The only module (with `io.ts`) that touches the process.
 */
import { Command, CommanderError } from 'commander';
import { registerDiffCommand } from './commands/diff.ts';
import { registerGenerateCommands } from './commands/generate.ts';
import { registerServeCommand } from './commands/serve.ts';
import type { CliIO } from './io.ts';

/** Runs restgen with `argv` (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[], overrides: Partial<CliIO> = {}): Promise<number> {
  let code = 0;
  const debug = argv.includes('--debug');
  const io: CliIO = {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
    debug,
    ...overrides,
    exit: (c) => void (code = Math.max(code, c)),
  };
  const program = new Command('restgen')
    .description('Versioned Fastify routes, zod validators, a typed client, OpenAPI and a diff report from a TypeScript DSL.')
    .option('--debug', 'print stack traces of unexpected errors')
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t), writeErr: (t) => io.err(t) });
  registerGenerateCommands(program, io);
  registerDiffCommand(program, io);
  registerServeCommand(program, io);
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
