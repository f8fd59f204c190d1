/**
 * @module `restgen diff`: compares two versions (`--from v1 --to v2`, the migration notes) or every version
 * with itself at a git ref (`--base <ref>`, the compatibility gate), and prints the findings as text,
 * Markdown, JSON, GitHub annotations, JUnit XML or a self-contained HTML page. Exit 0: nothing reaches
 * `--fail-on`; 1: something does; 2: usage error or an API module that does not load. The API at the ref
 * is read with git (the module and its local imports) into a temporary folder inside the repository, so
 * package imports resolve as they do for the working tree; the folder is removed afterwards. Breaks the
 * lock accepts (`generate --accept-breaking`) and findings on unreleased versions never fail.
 */
import type { Command } from 'commander';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { combineReports, diffConsecutive, diffHistory, diffVersions } from '../../diff/diff-history.ts';
import { FORMATS, formatReport, type ReportFormat } from '../../report/format.ts';
import { REPORT_SCHEMA } from '../../report/format-json.ts';
import { gateReport, reaches, SEVERITIES, unknownSeverityIds } from '../../diff/gate.ts';
import type { AcceptedBreak, DiffReport, GitRefs, Level, SeverityOverrides } from '../../diff/types.ts';
import { compareWithLock, lockPathFor, readLockFile } from '../../lock/index.ts';
import type { Diagnostic } from '../../model/diagnostics.ts';
import type { ApiIR } from '../../model/ir.ts';
import { formatDiagnostic, locateDiagnostics, locateSources } from '../../model/locate.ts';
import { isIsoDate } from '../../model/values.ts';
import { loadModel } from '../../pipeline/generate.ts';
import { loadConfig } from '../../config/load-config.ts';
import type { DiffConfig } from '../../dsl/define-config.ts';
import type { CliIO } from '../io.ts';
import { reportDiagnostics } from '../report.ts';

interface DiffFlags {
  readonly from?: string;
  readonly to?: string;
  readonly base?: string;
  readonly format: string;
  readonly failOn?: string;
  readonly today?: string;
  readonly severity: readonly string[];
  readonly schema?: boolean;
  readonly config?: string;
}

const FAIL_ON = ['breaking', 'warning', 'none'] as const;

/** A usage problem: reported on one line, exit 2. */
class UsageError extends Error {}

/** Runs git; a failure is a usage error with git's own first line (never the command line). */
function git(args: readonly string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const why =
      typeof stderr === 'string' && stderr.trim()
        ? stderr
            .trim()
            .split('\n')[0]!
            .replace(/^fatal: /, '')
        : `git ${args[0]} failed`;
    throw new UsageError(why);
  }
}

/** The commit `ref` names, or a usage error that says the ref is unknown. */
function resolveRef(ref: string, root: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // rev-parse --verify --quiet says nothing and exits 1 for a name that is no commit.
    throw new UsageError(`unknown git ref '${ref}': no branch, tag or commit of that name in ${root}`);
  }
}

/** HEAD's commit (null in a repository without commits) and whether the working tree has changes. */
function headOf(root: string): GitRefs['head'] {
  let commit: string | null = null;
  try {
    commit =
      execFileSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    // A repository without any commit yet has no HEAD: the report says null.
  }
  return { commit, dirty: git(['status', '--porcelain'], root).trim().length > 0 };
}

const LOCAL_IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The repository file a relative import names, trying the extensions TypeScript loaders try. */
function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`];
  return candidates.find((c) => files.has(c));
}

interface AtRef {
  readonly api?: ApiIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly absent: boolean;
  readonly git: GitRefs;
}

/**
 * The API module at git `ref`: `api` undefined when the module did not exist there, `diagnostics` when it
 * does not load or check. Paths in diagnostics name `ref:path`.
 */
async function loadAtRef(apiPath: string, ref: string): Promise<AtRef> {
  const dir = path.dirname(apiPath);
  const root = git(['rev-parse', '--show-toplevel'], dir).trim();
  const rel = git(['rev-parse', '--show-prefix'], dir).trim() + path.basename(apiPath);
  const commit = resolveRef(ref, root);
  const refs: GitRefs = { base: { ref, commit }, head: headOf(root) };
  const files = new Set(git(['ls-tree', '-r', '--name-only', commit], root).split('\n').filter(Boolean));
  if (!files.has(rel)) return { diagnostics: [], absent: true, git: refs };
  const temp = mkdtempSync(path.join(root, '.restgen-base-'));
  try {
    const queue = [rel];
    const seen = new Set(queue);
    while (queue.length) {
      const file = queue.pop()!;
      const text = git(['show', `${commit}:${file}`], root);
      mkdirSync(path.dirname(path.join(temp, file)), { recursive: true });
      writeFileSync(path.join(temp, file), text);
      for (const m of text.matchAll(LOCAL_IMPORT)) {
        const target = resolveImport(file, (m[1] ?? m[2])!, files);
        if (target && !seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    const model = await loadModel(path.join(temp, rel));
    const relabel = (d: Diagnostic): Diagnostic =>
      d.loc ? { ...d, loc: { ...d.loc, file: d.loc.file.startsWith(temp) ? `${ref}:${path.relative(temp, d.loc.file)}` : d.loc.file } } : d;
    return { ...(model.ir ? { api: model.ir } : {}), diagnostics: model.diagnostics.map(relabel), absent: false, git: refs };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function pick<T extends string>(value: string | undefined, allowed: readonly T[], option: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${option} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

/** `--severity id=level` flags as overrides, on top of the config file's. */
function severityOf(flags: readonly string[], config: SeverityOverrides): SeverityOverrides {
  const out: Record<string, Level | 'off'> = { ...config };
  for (const flag of flags) {
    const m = /^([^=\s]+)=([a-z]+)$/.exec(flag);
    if (!m) throw new UsageError(`--severity takes id=level, e.g. --severity rate-limit-lowered=safe (got '${flag}')`);
    out[m[1]!] = pick(m[2], SEVERITIES, `--severity ${m[1]}`)!;
  }
  const unknown = unknownSeverityIds(out);
  if (unknown.length)
    throw new UsageError(
      `--severity: unknown finding id ${unknown.map((id) => `'${id}'`).join(', ')}; the ids are listed in the docs' reference of finding ids (docs/reference/findings.md)`,
    );
  return out;
}

function versionPair(api: ApiIR, flags: DiffFlags): { from: string; to: string } | undefined {
  const names = api.versions.map((v) => v.name);
  for (const v of [flags.from, flags.to])
    if (v !== undefined && !names.includes(v)) throw new UsageError(`unknown version '${v}'; the API declares ${names.join(', ')}`);
  if (flags.from === undefined && flags.to === undefined) return undefined;
  if (flags.from !== undefined && flags.to !== undefined && names.indexOf(flags.from) >= names.indexOf(flags.to))
    throw new UsageError(`--from ${flags.from} must be older than --to ${flags.to} (the versions are ${names.join(', ')}, oldest first)`);
  const from = flags.from ?? names[names.indexOf(flags.to!) - 1];
  const to = flags.to ?? names[names.indexOf(flags.from!) + 1];
  if (from === undefined || to === undefined)
    throw new UsageError(`there is no version ${flags.from === undefined ? 'before' : 'after'} ${flags.from ?? flags.to}; give both --from and --to`);
  return { from, to };
}

async function printDiagnostics(diagnostics: readonly Diagnostic[], io: CliIO, locate: boolean): Promise<boolean> {
  const located = locate ? await locateDiagnostics(diagnostics) : diagnostics;
  for (const d of located) io.err(formatDiagnostic(d, io.cwd) + '\n');
  return diagnostics.some((d) => d.severity === 'error');
}

/** The breaks `restgen.lock.json` beside the module accepts (none without a lock). */
function acceptedBreaks(apiPath: string): readonly AcceptedBreak[] {
  const read = readLockFile(lockPathFor(apiPath));
  if (!read.ok) throw new UsageError(read.message);
  return read.lock?.accepted ?? [];
}

/** The findings with the exact line and column of their builder calls (oxc's parser; only when there are findings). */
async function locateReport(report: DiffReport): Promise<DiffReport> {
  const positions = await locateSources(report.findings.map((f) => f.loc));
  const findings = report.findings.map((f, i) => {
    const pos = positions[i];
    return pos && f.loc ? { ...f, loc: { ...f.loc, line: pos.line }, column: pos.column } : f;
  });
  return { ...report, findings };
}

/**
 * The lock's refusals, as `generate` and `check` report them (RG181 for a lock that cannot be read, RG180 for each
 * breaking change to a released version): printed, and true when there are any. Comparing versions of an API whose
 * released versions were edited in a breaking way would describe an API that cannot be generated.
 */
async function lockRefuses(api: ApiIR, apiPath: string, config: DiffConfig, today: string, io: CliIO): Promise<boolean> {
  const lockPath = lockPathFor(apiPath);
  const read = readLockFile(lockPath);
  const diagnostics: readonly Diagnostic[] = read.ok
    ? compareWithLock(api, read.lock, { today, ...(config.severity ? { severity: config.severity } : {}) }).diagnostics
    : [{ code: 'RG181', severity: 'error', message: read.message, loc: { file: lockPath, line: read.line, member: '' } }];
  if (diagnostics.length === 0) return false;
  await reportDiagnostics(diagnostics, io, false);
  io.err(
    `restgen diff: ${path.relative(io.cwd, lockPath) || lockPath} refuses these changes (restgen generate and check stop on them too); fix them, or compare with git history: restgen diff --base <ref>.\n`,
  );
  return true;
}

async function runDiff(apiArg: string | undefined, flags: DiffFlags, io: CliIO): Promise<void> {
  if (flags.schema) return io.out(JSON.stringify(REPORT_SCHEMA, null, 2) + '\n');
  const loaded = await loadConfig(io.cwd, flags.config);
  if (!loaded.ok) {
    await reportDiagnostics(loaded.diagnostics, io);
    return io.exit(2);
  }
  const config: DiffConfig = loaded.loaded?.config.diff ?? {};
  const configApi = loaded.loaded?.config.api;
  const apiPath =
    apiArg !== undefined
      ? path.resolve(io.cwd, apiArg)
      : configApi !== undefined
        ? path.resolve(path.dirname(loaded.loaded!.file), configApi)
        : path.resolve(io.cwd, 'api.ts');
  const format = pick(flags.format, FORMATS, '--format') as ReportFormat;
  const failOnFlag = pick(flags.failOn, FAIL_ON, '--fail-on') ?? config.failOn;
  const severity = severityOf(flags.severity, config.severity ?? {});
  if (flags.today !== undefined && !isIsoDate(flags.today)) throw new UsageError(`--today must be a date in YYYY-MM-DD form (got '${flags.today}')`);
  if (flags.base !== undefined && (flags.from !== undefined || flags.to !== undefined))
    throw new UsageError('give either --base <ref> or --from/--to, not both');
  const today = flags.today ?? new Date().toISOString().slice(0, 10);
  const head = await loadModel(apiPath);
  if ((await printDiagnostics(head.diagnostics, io, true)) || !head.ir) return io.exit(2);
  const api = head.ir;
  let report: DiffReport;
  let failOn: Level | 'none';
  if (flags.base !== undefined) {
    const base = await loadAtRef(apiPath, flags.base);
    if ((await printDiagnostics(base.diagnostics, io, false)) || (!base.api && !base.absent)) {
      io.err(`the API module at ${flags.base} does not load; nothing to compare.\n`);
      return io.exit(2);
    }
    if (base.absent) io.err(`${path.relative(io.cwd, apiPath)} does not exist at ${flags.base}: every version is new.\n`);
    const history = diffHistory(base.api, api, { from: flags.base, to: 'working tree', today });
    report = gateReport({ ...history, git: base.git }, { severity, accepted: acceptedBreaks(apiPath) });
    failOn = failOnFlag ?? 'breaking';
  } else {
    if (await lockRefuses(api, apiPath, config, today, io)) return io.exit(2);
    const pair = versionPair(api, flags);
    const raw = pair ? diffVersions(api, pair.from, pair.to, { today }) : combineReports(diffConsecutive(api, { today }));
    report = gateReport(raw, { severity });
    failOn = failOnFlag ?? 'none';
  }
  report = await locateReport({ ...report, api: api.title });
  io.out(formatReport(report, format, { relativeTo: io.cwd, failOn, today }));
  if (reaches(report.findings, failOn)) {
    if (!['json', 'junit', 'html'].includes(format)) io.err(`restgen diff: findings reach --fail-on ${failOn}.\n`);
    io.exit(1);
  }
}

const collect = (value: string, previous: readonly string[]): string[] => [...previous, value];

/** Registers `restgen diff`. Its settings may come from the config file's `diff` section; flags win over it. */
export function registerDiffCommand(program: Command, io: CliIO): void {
  program
    .command('diff')
    .description('classify the changes between two versions (--from/--to) or since a git ref (--base) as breaking, warning or safe')
    .argument('[api]', 'the API module (default: api in restgen.config.ts, else api.ts)')
    .option('--from <version>', 'the earlier version')
    .option('--to <version>', 'the later version')
    .option('--base <ref>', 'compare every version with itself at this git ref (a branch, tag or commit)')
    .option('--format <format>', `output format: ${FORMATS.join(', ')}`, 'text')
    .option('--fail-on <level>', 'exit 1 when a finding reaches this level: breaking, warning or none (default: breaking with --base, none otherwise)')
    .option('--severity <id=level>', 'judge a finding id (or a rule, both sides) at another level: breaking, warning, safe or off; repeatable', collect, [])
    .option('--today <date>', 'YYYY-MM-DD, to judge whether a sunset has passed (default: the current date)')
    .option('--schema', 'print the JSON Schema of the JSON report and exit')
    .option('--config <file>', 'the config file (default: restgen.config.ts in the working folder, when there is one)')
    .action(async (apiArg: string | undefined, flags: DiffFlags) => {
      try {
        await runDiff(apiArg, flags, io);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        io.err(`restgen diff: ${error.message}\n`);
        io.exit(2);
      }
    });
}
