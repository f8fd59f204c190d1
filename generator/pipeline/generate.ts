/**
 * @module The pipeline: load -> build -> check -> emit -> format -> write (or compare, for `check`).
 * Nothing is written unless every stage before the write succeeded, so a failed run leaves the
 * previous output untouched.
 */
import path from 'node:path';
import type { Part } from '../dsl/define-config.ts';
import { PART_NAMES, partsText, withNeeds } from '../emit/parts.ts';
import type { OutputFile } from '../emit/types.ts';
import { createPrettierFormatter, type Formatter } from '../format/formatter.ts';
import { bodyMatches, hashOf, headedBytes, readHeader } from '../format/header.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import type { Finding, SeverityOverrides } from '../diff/types.ts';
import { lockPathFor, serializeLock, writeLockFile } from '../lock/lock-file.ts';
import { applyPlan, readOutputFile, sameBytes, scanOutput, unusableOutput } from '../write/output-folder.ts';
import { codeIdentity } from './code-identity.ts';
import { hashInputs, INPUTS_FILE, inputsRecordText, keepHeldRecord, outputsDigest, readRecordedInputs, recordEqualsBut, recordHolds, settingsEntries, type InputsRecord } from './inputs-record.ts';
import { stampOf } from './file-stamp.ts';
import { judgeLock, readLockText } from './lock-verdict.ts';
import { loadRenderCache } from './render-cache.ts';
import { cacheFile, contentHash, outputSettingsStamp, outputStamps, recordInputs, runKey, saveRecord, unchangedOutputs, upToDate, type OutputRecord, type SettingsOf } from './run-cache.ts';
import { emitAll, keyThrough, loadModel, renderFile } from './stages.ts';
import { copiedFile } from '../emit/keyed-file.ts';
import { forgetLock, holdRecord, sessionLockText, sessionRecord, sessionRestgenStamp, type GenerateSession } from './session.ts';

export { emitAll, loadModel } from './stages.ts';

/** Options of {@link generate}. */
export interface GenerateOptions {
  /** The API module. */
  readonly apiPath: string;
  /** The output folder; `generated/` beside the API module by default. */
  readonly outDir?: string;
  /** `write` (generate) or `check` (compare with what is on disk, write nothing). */
  readonly mode?: 'write' | 'check';
  /** A folder of templates overriding restgen's by name. */
  readonly templatesDir?: string;
  /** Reused across runs in `--watch`, so prettier stays warm (default: the session's, else a new one). */
  readonly formatter?: Formatter;
  /**
   * What a resident process (`--watch`) keeps from run to run (see `session.ts`): unchanged collections are not
   * built again, and caches are not read from disk again while their files are unchanged. The output is the same.
   */
  readonly session?: GenerateSession;
  /** Record breaking changes to released versions in the lock instead of refusing them. */
  readonly acceptBreaking?: boolean;
  /** Why the breaks accepted with `acceptBreaking` are deliberate; recorded with each in the lock. */
  readonly acceptReason?: string;
  /** Severity overrides for the lock's judgement (the config file's `diff.severity`). */
  readonly severity?: SeverityOverrides;
  /** `YYYY-MM-DD`: judges whether a removed version's sunset has passed (the lock only; output never depends on it). */
  readonly today?: string;
  /** The parts to generate (default: all); the parts they need are added. */
  readonly parts?: readonly Part[];
}

/** Why `check` finds a file stale. */
export type StaleReason = 'missing' | 'edited' | 'outdated' | 'removed';

/** What a run did (or, in check mode, found). */
export interface GenerateResult {
  readonly ok: boolean;
  /** DSL and output-folder problems; when any is an error nothing was written. */
  readonly diagnostics: readonly Diagnostic[];
  readonly outDir: string;
  /** Every file the API generates, relative POSIX paths, sorted. */
  readonly files: readonly string[];
  readonly written: readonly string[];
  readonly removed: readonly string[];
  /** Check mode: files that are missing, edited, out of date, or generated but no longer produced. */
  readonly stale: readonly string[];
  /** Check mode: why each stale file is stale. */
  readonly staleReasons: Readonly<Record<string, StaleReason>>;
  /** How many files were rendered and formatted (their recorded render key or text did not match). */
  readonly formatted: number;
  /** Rendered texts the render cache held (`hits`) and those rendered anew (`misses`). */
  readonly renders: { readonly hits: number; readonly misses: number };
  /** True when the up-to-date cache answered without loading the API. */
  readonly cached: boolean;
  /** Check mode: the inputs record is behind its inputs (not stale: `generate` refreshes it). */
  readonly recordBehind?: boolean;
  /** Allowed changes to released versions (and newly released versions) that updated the lock. */
  readonly lockFindings: readonly Finding[];
  /** Write mode: the lock was written. Check mode: the lock is out of date. */
  readonly lockChanged: boolean;
  /** The lock file's path. */
  readonly lockPath: string;
  /** Milliseconds spent per stage (load, lock, emit, format, write), for `--debug`. */
  readonly timings: Readonly<Record<string, number>>;
  /**
   * The model. Built without call sites when the run had nothing to report: its source refs then name the
   * API module, not lines (`loadModel` builds one with them).
   */
  readonly ir?: ApiIR;
}

/** Generates (or checks) the output of one API module. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const apiPath = path.resolve(options.apiPath);
  const outDir = path.resolve(options.outDir ?? path.join(path.dirname(apiPath), 'generated'));
  const mode = options.mode ?? 'write';
  const lockPath = lockPathFor(apiPath);
  const timings: Record<string, number> = {};
  let lapStart = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round((timings[stage] ?? 0) + now - lapStart);
    lapStart = now;
  };
  const parts = withNeeds(options.parts ?? PART_NAMES);
  const empty = { outDir, files: [], written: [], removed: [], stale: [], staleReasons: {}, formatted: 0, renders: { hits: 0, misses: 0 }, cached: false, lockFindings: [], lockChanged: false, lockPath, timings };
  const { session } = options;
  const unusable = unusableOutput(outDir);
  if (unusable)
    return { ok: false, diagnostics: [{ code: 'RG202', severity: 'error', message: `${unusable}; restgen reads every file there and writes and removes the files it generates: choose a folder in your project (--out, or out in the config file; the default is generated/ beside the API module).` }], ...empty };
  const formatter = options.formatter ?? session?.formatter ?? createPrettierFormatter();
  // Forget configuration a warm formatter (--watch) resolved before, but only once it is needed: an
  // up-to-date run whose formatter configuration files are unchanged never loads prettier.
  let refreshed: Promise<void> | undefined;
  const settingsOf: SettingsOf = async (abs, language) => {
    await (refreshed ??= formatter.refresh());
    return formatter.settingsKey(abs, language);
  };
  const saved = sessionRecord(session, apiPath, outDir, options.templatesDir);
  // A record of a run for other parts never answers "up to date".
  // restgen itself and the template overrides, by their stamps (a session stamps restgen's own files once).
  const key = runKey(options.templatesDir, session && sessionRestgenStamp(session));
  const known = saved?.record.parts === partsText(parts) && (await upToDate(saved, apiPath, outDir, options.templatesDir, settingsOf, key));
  if (known) return { ok: true, diagnostics: [], ...empty, files: known, cached: true };
  // No run cache (a fresh clone, CI after `npm ci`) or another checkout: the committed inputs record may still prove the outputs up to date.
  const held = await recordHolds(outDir, apiPath, lockPath, options.templatesDir, parts, settingsOf);
  if (held) {
    keepHeldRecord(apiPath, outDir, options.templatesDir, held);
    return { ok: true, diagnostics: [], ...empty, files: held.files, cached: true };
  }
  lap('up-to-date check');
  // Call sites only ever show in diagnostics, and capturing one per builder call is a large part of loading an
  // API: the module is loaded without them, and once more with them when there is something to report.
  let model = await loadModel(apiPath, { callSites: false, ...(session ? { reuse: session.collections } : {}) });
  let callSites = model.diagnostics.length > 0;
  if (callSites) model = await loadModel(apiPath);
  lap('load, build, check');
  if (!model.ir) return { ok: false, diagnostics: model.diagnostics, ...empty };
  let ir = model.ir;
  const restgenKey = key.key;
  const renderCache = loadRenderCache(cacheFile(apiPath, outDir, options.templatesDir, '.render'), restgenKey, session?.renderCache);
  // A released version is frozen: judge it against its locked contract before anything is written. The lock is
  // known by the hash the last run of this restgen recorded while its stamp stands (the same hash function).
  const lockInput = saved?.record.key === restgenKey ? saved.record.inputs[lockPath] : undefined;
  const lockText = sessionLockText(session, lockPath, (file) => readLockText(file, lockInput && saved && { input: lockInput, recordedAt: saved.recordedAt }));
  const judge = async (model: ApiIR) => {
    const verdict = await judgeLock(model, lockText, renderCache.memo, options);
    if (!('problem' in verdict)) return verdict;
    return { ok: false, diagnostics: [{ code: 'RG181', severity: 'error', message: verdict.problem, loc: { file: lockPath, line: verdict.line, member: '' } }], ...empty } satisfies GenerateResult;
  };
  let lock = await judge(ir);
  if ('ok' in lock) return lock;
  if (lock.diagnostics.length > 0 && !callSites) {
    // Refusals name the lines of the changes they refuse.
    model = await loadModel(apiPath);
    callSites = true;
    if (!model.ir) return { ok: false, diagnostics: model.diagnostics, ...empty };
    ir = model.ir;
    lock = await judge(ir);
    if ('ok' in lock) return lock;
  }
  if (lock.diagnostics.length > 0) return { ok: false, diagnostics: [...model.diagnostics, ...lock.diagnostics], ...empty };
  lap('lock');
  const sourcePath = path.relative(outDir, apiPath).split(path.sep).join('/');
  let files: OutputFile[];
  /** A template override that fails to compile or render is the user's error (RG201); anything else is restgen's. */
  const overrideFailed = (error: unknown): GenerateResult => {
    if (!options.templatesDir || !(error instanceof Error) || !error.message.startsWith('template override')) throw error;
    return { ok: false, diagnostics: [{ code: 'RG201', severity: 'error', message: error.message }], ...empty };
  };
  try {
    files = await emitAll(ir, sourcePath, options.templatesDir, parts, renderCache.memo);
  } catch (error) {
    return overrideFailed(error);
  }
  lap('emit');
  // Outputs the previous run recorded and nobody touched since need not be read to be compared.
  // Only a record of this very restgen: another one may write other headers for the same input.
  const sameRestgen = saved !== undefined && saved.record.key === restgenKey;
  const stampsBefore = sameRestgen ? outputStamps(outDir) : undefined;
  const unchanged = unchangedOutputs(sameRestgen ? saved : undefined, stampsBefore ?? new Map());
  const produced = new Set(files.map((f) => f.path));
  // A file at a path this run produces is read whole below (and told restgen's or the user's there): the scan
  // reads the first bytes of the other files only, to find generated files no longer produced.
  const state = await scanOutput(outDir, (rel) => unchanged.has(rel) || produced.has(rel));
  const conflicts: string[] = [];
  const writes: { path: string; content: Buffer[] }[] = [];
  const stale: string[] = [];
  const staleReasons: Record<string, StaleReason> = {};
  let formatted = 0;
  const outputs: Record<string, Omit<OutputRecord, 'stamp'>> = {};
  // Settings are resolved per folder and language; the comparison itself is synchronous on purpose
  // (thousands of small reads, where promise overhead would dominate).
  const settingsByFolder = new Map<string, string>();
  for (const file of [...files, { path: INPUTS_FILE, language: 'json' } as const]) {
    const key = `${path.posix.dirname(file.path)}\0${file.language}`;
    if (!settingsByFolder.has(key)) settingsByFolder.set(key, await settingsOf(path.join(outDir, file.path), file.language));
  }
  const identity = renderCache.identity ?? codeIdentity(options.templatesDir);
  const exact = options.templatesDir === undefined;
  // Header `in` hashes name what a file was rendered from, not by which restgen: they prove a file up to date
  // only while the inputs record names this restgen. Under another one every file is rendered and compared.
  const recorded = readRecordedInputs(outDir);
  const keysTrusted = recorded?.identity === identity;
  // Check mode: files whose text is right but whose header is not what `generate` would write now.
  let headersBehind = 0;
  // Check mode: the inputs record is not what `generate` would write now.
  let recordBehind = false;
  // Each file's rendered text is dropped once it has been compared and formatted, so that a large API
  // never holds every rendered and every formatted file at once.
  const pending: (OutputFile | undefined)[] = files;
  /** Compares one output with the folder: written (or, in check mode, found stale) unless it is up to date. */
  const compare = async (file: OutputFile): Promise<void> => {
    const abs = path.join(outDir, file.path);
    const settings = settingsByFolder.get(`${path.posix.dirname(file.path)}\0${file.language}`)!;
    // A keyed file is known by what it is rendered from (and by which restgen): it is not rendered to be
    // compared. A file without a key (the runtime, copied verbatim) is known by its text.
    const input = hashOf('key', keyThrough(file, renderCache.memo), settings);
    outputs[file.path] = { input, language: file.language, settings };
    const recorded = unchanged.get(file.path);
    if (recorded === input) return;
    // Written by this restgen and untouched since, under another key: `generate` rewrites it without reading it
    // (its header will differ); `check` reads it, as the same text may stand under another key.
    const existing = recorded !== undefined && mode === 'write' ? undefined : readOutputFile(outDir, file.path);
    const header = existing === undefined ? undefined : readHeader(existing);
    if (existing !== undefined && header === undefined) {
      conflicts.push(file.path);
      return;
    }
    if (header && header.intact && !header.earlier && header.hashes.input === input && keysTrusted) return;
    // The inputs record only ever speeds a run up (it is checked against the inputs before it is trusted): one
    // that is behind (an input changed in a way no output shows, such as a comment) is not a stale output.
    if (mode === 'check' && file.path === INPUTS_FILE) {
      recordBehind = true;
      return;
    }
    lap('compare');
    // restgen's own templates lay files out exactly as prettier prints them with its defaults; a user's
    // template override comes with no such promise, so its files are formatted.
    const body = await formatter.format(renderFile(file, renderCache.memo), abs, file.language, file.preformatted === true || exact);
    lap(`format ${file.path.split('/')[0]}`);
    formatted++;
    if (mode === 'check') {
      // The same text under another key (its inputs changed in ways that do not show in it, or another restgen
      // wrote it): what the file says is right; only its header would change, so it is not stale.
      if (header && header.intact && bodyMatches([body], header.hashes.output)) {
        headersBehind++;
        return;
      }
      stale.push(file.path);
      staleReasons[file.path] = existing === undefined ? 'missing' : header && !header.intact ? 'edited' : 'outdated';
      return;
    }
    // Rewritten even when only the header changes: the bytes restgen writes never depend on the history of runs.
    const content = headedBytes(file.language, body, sourcePath, input);
    if (existing === undefined || !sameBytes(existing, content)) writes.push({ path: file.path, content });
  };
  // The API's files, hashed once for the inputs record and the run record; the lock as it stands after this
  // run (it may rewrite it) goes with them.
  const apiInputs = recordInputs([...new Set([...(model.files ?? []), apiPath])].sort());
  const lockHash = mode === 'write' && lock.changed ? contentHash(serializeLock(lock.nextLock)) : (lockText.hash ?? 'missing');
  try {
    for (let i = 0; i < pending.length; i++) {
      const file = pending[i]!;
      pending[i] = undefined;
      await compare(file);
    }
    // Last: the record lists every other output's key.
    const record: InputsRecord = {
      identity,
      parts: partsText(parts),
      inputs: hashInputs(outDir, [...Object.entries(apiInputs).map(([file, i]) => [file, i.hash] as const), [lockPath, lockHash]]),
      settings: settingsEntries(settingsByFolder),
      outputs: outputsDigest(Object.entries(outputs).map(([rel, o]) => [rel, o.input] as const)),
    };
    produced.add(INPUTS_FILE);
    // Another restgen whose output is byte-identical rewrites nothing, not even the record: the record keeps naming
    // the restgen that wrote it (so header keys are not trusted under this one, and files are compared instead).
    const onlyRestgenDiffers = writes.length === 0 && stale.length === 0 && [...state.generated].every((p) => produced.has(p)) && recorded !== undefined && recordEqualsBut(recorded, record);
    const text = inputsRecordText(record);
    if (!onlyRestgenDiffers) await compare(copiedFile(INPUTS_FILE, text, 'json'));
  } catch (error) {
    // Keyed files render here, when read: a template override can fail now too.
    return overrideFailed(error);
  }
  if (conflicts.length > 0) {
    const diagnostics: Diagnostic[] = conflicts.map((rel) => ({
      code: 'RG200',
      severity: 'error',
      message: `${path.join(outDir, rel)} exists and was not generated by restgen; restgen will not overwrite it. Move it away or choose another --out.`,
    }));
    return { ok: false, diagnostics, ...empty, files: [...produced] };
  }
  const written: string[] = [];
  const removals = [...state.generated].filter((p) => !produced.has(p)).sort();
  let lockChanged = lock.changed;
  if (mode === 'check') {
    stale.push(...removals);
    for (const r of removals) staleReasons[r] = 'removed';
  }
  else {
    lap('compare');
    await applyPlan(outDir, writes, removals);
    written.push(...writes.map((w) => w.path));
    // Written: their texts need not stay alive while the render cache is saved.
    writes.length = 0;
    lockChanged = lock.changed && writeLockFile(lockPath, lock.nextLock);
    if (lock.changed) forgetLock(session);
  }
  renderCache.save(identity);
  // Not recorded while a header or the inputs record is behind: the record would let `generate` answer "up to date" and keep it so.
  if (stale.length === 0 && headersBehind === 0 && !recordBehind && !(mode === 'check' && lock.changed) && model.files) {
    // The lock as this run read it, unless the run rewrote it.
    const inputs = { ...apiInputs, ...recordInputs([lockPath], lockChanged ? undefined : new Map([[lockPath, lockText.input]])) };
    // Only the files this run wrote have new stamps: the rest were taken before it, and nothing else changed them.
    const stamps = stampsBefore ? new Map([...stampsBefore, ...written.map((rel) => [rel, stampOf(path.join(outDir, rel)) ?? ''] as const)]) : outputStamps(outDir);
    const stamped: Record<string, OutputRecord> = {};
    for (const rel in outputs) {
      const o = outputs[rel]!;
      stamped[rel] = { input: o.input, language: o.language, settings: o.settings, stamp: stamps.get(rel) ?? '' };
    }
    const settings = outputSettingsStamp(outDir, Object.keys(outputs))?.stamp ?? null;
    holdRecord(session, apiPath, outDir, options.templatesDir, saveRecord(apiPath, outDir, options.templatesDir, { key: restgenKey, parts: partsText(parts), inputs, outputs: stamped, settings }));
  }
  lap('write');
  return {
    ok: mode === 'write' || (stale.length === 0 && !lock.changed),
    diagnostics: model.diagnostics,
    outDir,
    files: [...produced],
    written,
    removed: mode === 'write' ? removals : [],
    stale: stale.sort(),
    staleReasons,
    formatted,
    renders: { ...renderCache.stats },
    cached: false,
    ...(recordBehind ? { recordBehind } : {}),
    lockFindings: lock.findings,
    lockChanged,
    lockPath,
    timings,
    ir,
  };
}
