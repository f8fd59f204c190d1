/**
 * @module `restgen conformance [api.ts] --url <base URL> [--header 'Name: value']... [--version <v>]...
 * [--only <collection>]... [--format text|json|junit]`: checks a running server against the API module's
 * contract. It writes: it creates its own records (and deletes them again where it can), never others'.
 * Exit 0 when every check holds, 1 when one fails, 2 on usage errors, 3 when the run could not complete (the
 * server could not be reached, a request got no complete answer, the deadline passed).
 */
import { Option, type Command } from 'commander';
import { closest } from '../../model/option-shapes.ts';
import type { ApiIR } from '../../model/ir.ts';
import { loadConformancePackage } from '../../conformance/load-package.ts';
import { loadModel } from '../../pipeline/generate.ts';
import { info, type CliIO } from '../io.ts';
import { terminalText } from '../style.ts';
import { reportDiagnostics } from '../report.ts';
import { resolveRun } from '../run-options.ts';

interface ConformanceFlags {
  readonly url?: string;
  readonly header: readonly string[];
  readonly version: readonly string[];
  readonly only: readonly string[];
  readonly format: string;
  readonly concurrency: string;
  readonly maxWait: string;
  readonly maxTotalWait: string;
  readonly timeout: string;
  readonly maxBody: string;
  readonly deadline: string;
  readonly seed?: string;
  readonly config?: string;
}

/** A problem with the command line: one line, exit 2. */
class UsageError extends Error {}

/** The formats of `@restgen/conformance`'s reports (a test keeps them in step with the package's). */
const FORMATS = ['text', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];
/** A header field name (RFC 9110 token). */
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

const collect = (value: string, previous: readonly string[]): string[] => [...previous, value];

function wholeNumber(text: string, option: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) throw new UsageError(`${option} must be a whole number from ${min} to ${max} (got '${text}')`);
  return n;
}

function urlOf(text: string | undefined): string {
  if (text === undefined || text.trim() === '') throw new UsageError('--url is required: the base URL of the running server, e.g. --url http://127.0.0.1:3000');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL (got '${text}')`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be an http:// or https:// URL (got '${text}')`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`--url takes the base URL only, without a query or fragment (got '${text}')`);
  return url.href.replace(/\/+$/, '');
}

function headersOf(flags: readonly string[]): [string, string][] {
  return flags.map((text) => {
    const m = HEADER.exec(text);
    if (!m) throw new UsageError(`--header takes 'Name: value', e.g. --header 'Authorization: Bearer <token>' (got '${text}')`);
    return [m[1]!, m[2]!];
  });
}

function versionsOf(ir: ApiIR, flags: readonly string[]): string[] {
  const names = ir.versions.map((v) => v.name);
  for (const v of flags) if (!names.includes(v)) throw new UsageError(`unknown version '${v}'; the API declares ${names.join(', ')}`);
  return [...flags];
}

function onlyOf(ir: ApiIR, flags: readonly string[], versions: readonly string[]): string[] {
  for (const name of flags) {
    const c = ir.collections.find((x) => x.name === name || x.renames.some((r) => r.from === name));
    const mine = ir.collections.filter((x) => x.builtin === undefined).map((x) => x.name);
    if (!c) {
      const guess = closest(name, mine);
      throw new UsageError(`unknown collection '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}; the API has ${mine.join(', ')}`);
    }
    if (c.builtin !== undefined)
      throw new UsageError(`${name} is restgen's own collection, not one your handlers serve; conformance checks ${mine.join(', ')}`);
    const chosen = versions.length > 0 ? versions : ir.versions.map((v) => v.name);
    const order = ir.versions.map((v) => v.name);
    const exists = chosen.some((v) => {
      const at = order.indexOf(v);
      return (c.addedIn === undefined || at >= order.indexOf(c.addedIn)) && (c.removedIn === undefined || at < order.indexOf(c.removedIn));
    });
    if (!exists) throw new UsageError(`${name} exists in none of the versions checked (${chosen.join(', ')})`);
  }
  return [...flags];
}

async function runConformanceCommand(apiArg: string | undefined, flags: ConformanceFlags, io: CliIO): Promise<void> {
  if (!(FORMATS as readonly string[]).includes(flags.format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got '${flags.format}')`);
  const url = urlOf(flags.url);
  const headers = headersOf(flags.header);
  const concurrency = wholeNumber(flags.concurrency, '--concurrency', 2, 30);
  const maxWait = wholeNumber(flags.maxWait, '--max-wait', 0, 3600);
  const maxTotalWait = wholeNumber(flags.maxTotalWait, '--max-total-wait', 0, 86_400);
  const timeout = wholeNumber(flags.timeout, '--timeout', 1, 3600);
  const maxBody = wholeNumber(flags.maxBody, '--max-body', 1, 1024);
  const deadline = wholeNumber(flags.deadline, '--deadline', 1, 86_400);
  const seed = flags.seed === undefined ? undefined : wholeNumber(flags.seed, '--seed', 0, 2 ** 31 - 1);
  const run = await resolveRun('conformance', apiArg, flags.config !== undefined ? { config: flags.config } : {}, io);
  if (!run) return;
  const model = await loadModel(run.apiPath);
  if ((await reportDiagnostics(model.diagnostics, io, false)) || !model.ir) return io.exit(2);
  const ir = model.ir;
  const versions = versionsOf(ir, flags.version);
  const only = onlyOf(ir, flags.only, versions);
  // The engine is a package of its own (with ajv and fast-check), loaded only when a run starts.
  const loaded = await loadConformancePackage(run.apiPath);
  if (!loaded.ok) throw new UsageError(loaded.message);
  const { runConformance, formatReport, summaryOf, verdictOf, EXIT_CODES } = loaded.mod;
  const { contractOf } = await import('../../conformance/contract.ts');
  info(io, `restgen conformance: checking ${url} against ${ir.title}; it creates records of its own and deletes them again\n`);
  const outcome = await runConformance(
    contractOf(ir),
    {
      url,
      headers,
      versions,
      only,
      concurrency,
      maxWait: maxWait * 1000,
      maxTotalWait: maxTotalWait * 1000,
      timeout: timeout * 1000,
      maxBody: maxBody * 1024 * 1024,
      deadline: deadline * 1000,
      ...(seed !== undefined ? { seed } : {}),
    },
    (line) => info(io, `  ${line}\n`),
  );
  if (outcome.kind === 'unreachable') {
    io.err(`restgen conformance: ${outcome.message}; is the server running, and is --url its base URL?\n`);
    return io.exit(EXIT_CODES.incomplete.code);
  }
  // The report quotes the server: a terminal gets it without control characters, whatever the format escapes.
  io.out(terminalText(formatReport(outcome.report, flags.format as Format), false));
  const failed = summaryOf(outcome.report).failed;
  if (failed > 0 && flags.format !== 'text') io.err(`restgen conformance: ${failed} check${failed === 1 ? '' : 's'} failed.\n`);
  if (outcome.report.incomplete.length > 0 && flags.format !== 'text')
    io.err(`restgen conformance: the run did not complete: ${outcome.report.incomplete.map((i) => i.message).join('; ')}.\n`);
  io.exit(EXIT_CODES[verdictOf(outcome.report)].code);
}

/**
 * Registers `restgen conformance`. Its `--version` names API versions, so the program's own `--version` must
 * not be read after the command name: options after a command belong to it (program options go before it).
 */
export function registerConformanceCommand(program: Command, io: CliIO): void {
  program.enablePositionalOptions();
  program
    .command('conformance')
    .description("check a running server (your handlers, your database) against the API's contract; it creates and deletes records of its own")
    .argument('[api]', 'the API module (default: api in restgen.config.ts, else api.ts)')
    .option('--url <url>', 'the base URL of the running server (with the prefix the API is mounted under)')
    .addOption(
      new Option('--header <header>', "a header sent with every request, 'Name: value' (credentials: 'Authorization: Bearer <token>'); repeatable")
        .default([], 'none')
        .argParser(collect),
    )
    .addOption(new Option('--version <version>', 'check only this version; repeatable').default([], 'every version').argParser(collect))
    .addOption(new Option('--only <collection>', 'check only this collection; repeatable').default([], 'every collection').argParser(collect))
    .option('--format <format>', `output format: ${FORMATS.join(', ')}`, 'text')
    .option('--concurrency <n>', 'requests sent at once by the concurrency checks', '5')
    .option('--max-wait <seconds>', 'the longest Retry-After of a 429 that is waited out before retrying', '60')
    .option('--max-total-wait <seconds>', 'all the waiting on 429 answers of a run, together', '600')
    .option('--timeout <seconds>', 'how long one request may take, from sending it to the last byte of its answer', '10')
    .option('--max-body <MiB>', 'the largest answer body read; a larger one is reported and not read on', '16')
    .option('--deadline <seconds>', 'how long the checks may take together (the cleanup after it gets a minute more)', '1800')
    .option('--seed <n>', 'makes the generated values reproducible')
    .option('--config <file>', 'the config file (default: restgen.config.ts in the working folder, when there is one)')
    .option('-q, --quiet', 'print only the report and errors')
    .option('--no-color', 'no colours')
    .option('--debug', 'print stack traces of unexpected errors')
    .action(async (apiArg: string | undefined, flags: ConformanceFlags) => {
      try {
        await runConformanceCommand(apiArg, flags, io);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        io.err(`restgen conformance: ${error.message}\n`);
        io.exit(2);
      }
    });
}
