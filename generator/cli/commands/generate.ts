/**
 * @module `restgen generate` and `restgen check`.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { createPrettierFormatter } from '../../format/formatter.ts';
import { formatDiagnostic, locateDiagnostics } from '../../model/locate.ts';
import { generate, type GenerateResult } from '../../pipeline/generate.ts';
import type { CliIO } from '../io.ts';

interface Flags {
  readonly out?: string;
  readonly watch?: boolean;
  readonly templates?: string;
  readonly acceptBreaking?: boolean;
}

/** Today's date for the lock's sunset judgement; only the CLI reads the clock. */
const today = (): string => new Date().toISOString().slice(0, 10);

/** Prints diagnostics (columns located) and returns whether any was an error. */
export async function reportDiagnostics(result: Pick<GenerateResult, 'diagnostics'>, io: CliIO): Promise<boolean> {
  if (result.diagnostics.length === 0) return false;
  const located = await locateDiagnostics(result.diagnostics);
  for (const d of located) io.err(formatDiagnostic(d, io.cwd) + '\n');
  const errors = located.filter((d) => d.severity === 'error').length;
  if (errors > 0) io.err(`${errors} error${errors === 1 ? '' : 's'}; nothing was written.\n`);
  return errors > 0;
}

function rel(io: CliIO, p: string): string {
  return path.relative(io.cwd, p) || '.';
}

async function runGenerate(apiPath: string, flags: Flags, io: CliIO, formatter = createPrettierFormatter()): Promise<void> {
  const started = performance.now();
  const result = await generate({
    apiPath: path.resolve(io.cwd, apiPath),
    ...(flags.out ? { outDir: path.resolve(io.cwd, flags.out) } : {}),
    ...(flags.templates ? { templatesDir: path.resolve(io.cwd, flags.templates) } : {}),
    ...(flags.acceptBreaking ? { acceptBreaking: true } : {}),
    today: today(),
    formatter,
  });
  if (await reportDiagnostics(result, io)) return io.exit(2);
  if (io.debug) io.err(`timings (ms): ${JSON.stringify(result.timings)}\n`);
  for (const f of result.lockFindings) io.err(`  lock    ${f.level}: ${f.version} ${f.location}: ${f.message} (${f.id})\n`);
  if (result.lockChanged) io.err(`  wrote   ${rel(io, result.lockPath)}\n`);
  const ms = Math.round(performance.now() - started);
  const changes = result.written.length + result.removed.length;
  for (const f of result.written) io.err(`  wrote   ${rel(io, path.join(result.outDir, f))}\n`);
  for (const f of result.removed) io.err(`  removed ${rel(io, path.join(result.outDir, f))}\n`);
  io.err(
    `${changes === 0 ? 'up to date' : `${result.written.length} written, ${result.removed.length} removed`}: ` +
      `${result.files.length} files in ${rel(io, result.outDir)} (${ms} ms)\n`,
  );
}

/** Registers `generate` and `check`. */
export function registerGenerateCommands(program: Command, io: CliIO): void {
  program
    .command('generate')
    .description('generate every version\'s code from the API module')
    .argument('[api]', 'the API module', 'api.ts')
    .option('--out <dir>', 'output folder (default: generated/ beside the module)')
    .option('--templates <dir>', 'a folder of templates overriding restgen\'s by name')
    .option('--watch', 'regenerate whenever a file beside the module changes')
    .option('--accept-breaking', 'record a deliberate breaking change to a released version in restgen.lock.json')
    .action(async (apiPath: string, flags: Flags) => {
      const formatter = createPrettierFormatter();
      await runGenerate(apiPath, flags, io, formatter);
      if (flags.watch) {
        const { watchApi } = await import('../watch.ts');
        await watchApi(path.resolve(io.cwd, apiPath), flags.out ? path.resolve(io.cwd, flags.out) : undefined, io, () =>
          runGenerate(apiPath, flags, io, formatter),
        );
      }
    });
  program
    .command('check')
    .description('exit 1 when the generated files are not what generate would write (for CI)')
    .argument('[api]', 'the API module', 'api.ts')
    .option('--out <dir>', 'output folder (default: generated/ beside the module)')
    .option('--templates <dir>', 'a folder of templates overriding restgen\'s by name')
    .action(async (apiPath: string, flags: Flags) => {
      const result = await generate({
        apiPath: path.resolve(io.cwd, apiPath),
        mode: 'check',
        today: today(),
        ...(flags.out ? { outDir: path.resolve(io.cwd, flags.out) } : {}),
        ...(flags.templates ? { templatesDir: path.resolve(io.cwd, flags.templates) } : {}),
      });
      if (await reportDiagnostics(result, io)) return io.exit(2);
      if (result.stale.length > 0 || result.lockChanged) {
        for (const f of result.stale) io.err(`  stale   ${rel(io, path.join(result.outDir, f))}\n`);
        if (result.lockChanged) io.err(`  stale   ${rel(io, result.lockPath)} (a version was released or changed safely)\n`);
        const count = result.stale.length + (result.lockChanged ? 1 : 0);
        io.err(`${count} generated file${count === 1 ? ' is' : 's are'} out of date; run restgen generate.\n`);
        return io.exit(1);
      }
      io.err(`up to date: ${result.files.length} files in ${rel(io, result.outDir)}\n`);
    });
}
