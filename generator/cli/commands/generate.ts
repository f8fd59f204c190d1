/**
 * @module `restgen generate` and `restgen check`.
 */
import type { Command } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { commonJsOutput } from '../../load/module-scope.ts';
import type { Finding } from '../../diff/types.ts';
import { missingPeers, runtimeMismatch } from '../../config/peers.ts';
import { generate, type StaleReason } from '../../pipeline/generate.ts';
import type { GenerateSession } from '../../pipeline/session.ts';
import { info, type CliIO } from '../io.ts';
import { reportDiagnostics } from '../report.ts';
import { resolveRun, type ResolvedRun, type RunFlags } from '../run-options.ts';
import { paintOf } from '../style.ts';

interface Flags extends RunFlags {
  readonly watch?: boolean;
  /** `true`, or the reason recorded with each accepted break. */
  readonly acceptBreaking?: boolean | string;
}

/**
 * One line for a change the lock recorded: `safe: v1: tickets.note was added (optional) (optional-field-added)`.
 * The version and the location lead the line unless the message already starts with them (`v2 was released ...`,
 * `tickets.title: max length ...`), so no word is said twice.
 */
export function lockLine(f: Pick<Finding, 'level' | 'version' | 'location' | 'message' | 'id'>): string {
  const says = (word: string): boolean => f.message === word || f.message.startsWith(`${word} `) || f.message.startsWith(`${word}:`);
  const lead = [f.version, f.location].filter((word, i, all) => word !== '' && all.indexOf(word) === i && !says(word));
  return `${f.level}: ${lead.length > 0 ? `${lead.join(' ')}: ` : ''}${f.message} (${f.id})`;
}

/** Today's date for the lock's sunset judgement; only the CLI reads the clock. */
const today = (): string => new Date().toISOString().slice(0, 10);

/** How `check` explains each stale file. */
const WHY: { readonly [R in StaleReason]: string } = {
  missing: 'missing',
  edited: 'edited by hand',
  outdated: 'out of date',
  removed: 'no longer generated',
};

function rel(io: CliIO, p: string): string {
  return path.relative(io.cwd, p) || '.';
}

/** The options of {@link generate} a resolved run gives. */
function pipelineOptions(run: ResolvedRun) {
  return {
    apiPath: run.apiPath,
    ...(run.outDir ? { outDir: run.outDir } : {}),
    ...(run.templatesDir ? { templatesDir: run.templatesDir } : {}),
    parts: run.parts,
    today: today(),
    ...(run.config?.config.diff?.severity ? { severity: run.config.config.diff.severity } : {}),
  };
}

/** `--debug`: the run's CPU time (every thread of the process), its resident memory now and at its peak so far. */
function usageSince(cpu: NodeJS.CpuUsage): string {
  const spent = process.cpuUsage(cpu);
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
  return `cpu: ${Math.round((spent.user + spent.system) / 1000)} ms; rss: ${mib(process.memoryUsage.rss())} MiB; peak rss: ${mib(peakRssKiB() * 1024)} MiB`;
}

/**
 * This process's peak resident memory in KiB: Linux's VmHWM. getrusage's maxrss counts, in a process started by
 * fork and exec, what its parent held (a build tool or test runner that runs restgen); elsewhere it is what there is.
 */
function peakRssKiB(): number {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '');
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
}

async function runGenerate(run: ResolvedRun, flags: Flags, io: CliIO, session: GenerateSession | undefined): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const p = paintOf(io);
  const accept = flags.acceptBreaking;
  const result = await generate({
    ...pipelineOptions(run),
    ...(accept ? { acceptBreaking: true } : {}),
    ...(typeof accept === 'string' ? { acceptReason: accept } : {}),
    ...(session ? { session } : {}),
  });
  if (await reportDiagnostics(result.diagnostics, io)) return io.exit(2);
  // A run the up-to-date proof answered has no model (and its scopes were reported when it was generated).
  const model = result.ir ? (await import('../../model/check-scopes.ts')).unusedScopes(result.ir, run.apiPath) : [];
  await reportDiagnostics(
    [...model, ...commonJsOutput(result.outDir), ...missingPeers(result.outDir, run.parts), ...runtimeMismatch(result.outDir, run.parts)],
    io,
  );
  if (io.debug) {
    const kept = session ? `; collections reused: ${session.collections.stats.reused}, built: ${session.collections.stats.built}` : '';
    io.err(`timings (ms): ${JSON.stringify(result.timings)}; renders: ${JSON.stringify(result.renders)}${kept}; ${usageSince(cpu)}\n`);
  }
  for (const f of result.lockFindings) info(io, `  lock    ${lockLine(f)}\n`);
  if (result.lockChanged) info(io, `  ${p.green('wrote')}   ${rel(io, result.lockPath)}\n`);
  const ms = Math.round(performance.now() - started);
  const changes = result.written.length + result.removed.length;
  for (const f of result.written) info(io, `  ${p.green('wrote')}   ${rel(io, path.join(result.outDir, f))}\n`);
  for (const f of result.removed) info(io, `  ${p.yellow('removed')} ${rel(io, path.join(result.outDir, f))}\n`);
  info(
    io,
    `${changes === 0 ? p.green('up to date') : `${result.written.length} written, ${result.removed.length} removed`}: ` +
      `${result.files.length} files in ${rel(io, result.outDir)} (${ms} ms)\n`,
  );
}

async function runCheck(run: ResolvedRun, io: CliIO): Promise<void> {
  const p = paintOf(io);
  const result = await generate({ ...pipelineOptions(run), mode: 'check' });
  if (await reportDiagnostics(result.diagnostics, io, false)) return io.exit(2);
  if (result.stale.length > 0 || result.lockChanged) {
    for (const f of result.stale) io.err(`  ${p.yellow('stale')}   ${rel(io, path.join(result.outDir, f))} (${WHY[result.staleReasons[f] ?? 'outdated']})\n`);
    if (result.lockChanged)
      io.err(
        `  ${p.yellow('stale')}   ${rel(io, result.lockPath)} (it does not record the released versions as they now are: a version was released, or changed safely or by an accepted break)\n`,
      );
    const count = result.stale.length + (result.lockChanged ? 1 : 0);
    io.err(`${count} generated file${count === 1 ? ' is' : 's are'} out of date; run restgen generate.\n`);
    return io.exit(1);
  }
  info(io, `${p.green('up to date')}: ${result.files.length} files in ${rel(io, result.outDir)}\n`);
}

/** The options `generate` and `check` share. */
function withRunOptions(command: Command): Command {
  return command
    .argument('[api]', 'the API module (default: api in restgen.config.ts, else api.ts)')
    .option('--out <dir>', 'output folder (default: generated/ beside the module)')
    .option('--templates <dir>', "a folder of templates overriding restgen's by name")
    .option('--parts <list>', 'only these parts, comma-separated: zod, client, openapi, server, changes (server brings zod and openapi)')
    .option('--config <file>', 'the config file (default: restgen.config.ts in the working folder, when there is one)');
}

/** Registers `generate` and `check`. */
export function registerGenerateCommands(program: Command, io: CliIO): void {
  withRunOptions(program.command('generate').description("generate every version's code from the API module"))
    .option('--watch', 'regenerate whenever a file beside the module changes')
    .option('--accept-breaking [reason]', 'record a deliberate breaking change to a released version in restgen.lock.json, with the reason (recorded too)')
    .action(async (given: string | undefined, options: Flags) => {
      // `--accept-breaking [reason]` takes the next word when there is one: `generate --accept-breaking src/api.ts`
      // names the module, not a reason, when no module was given and the word is an existing module file.
      const reason = options.acceptBreaking;
      const moduleAsReason =
        given === undefined &&
        typeof reason === 'string' &&
        /\.[cm]?[jt]s$/.test(reason) &&
        statSync(path.resolve(io.cwd, reason), { throwIfNoEntry: false })?.isFile() === true;
      const apiArg = moduleAsReason ? (reason as string) : given;
      const flags: Flags = moduleAsReason ? { ...options, acceptBreaking: true } : options;
      const run = await resolveRun('generate', apiArg, flags, io);
      if (!run) return;
      // One session for the whole watch: each run after the first reuses what the runs before it kept. A single
      // run has nothing to reuse, and is exactly the run it always was.
      const session = flags.watch ? (await import('../../pipeline/session.ts')).createGenerateSession() : undefined;
      await runGenerate(run, flags, io, session);
      if (flags.watch) {
        const { watchApi } = await import('../watch.ts');
        await watchApi(run.apiPath, run.outDir, io, () => runGenerate(run, flags, io, session));
      }
    });
  withRunOptions(program.command('check').description('exit 1 when the generated files are not what generate would write (for CI)')).action(
    async (apiArg: string | undefined, flags: RunFlags) => {
      const run = await resolveRun('check', apiArg, flags, io);
      if (run) await runCheck(run, io);
    },
  );
}
