/**
 * @module The lock's verdict on a model, kept in the render cache as facts so that a run whose released
 * versions did not change neither parses the lock nor builds a contract:
 * - each collection's projection hash, per version, under the hash of the IR it is projected from (a collection
 *   as a version sees it is a function of the version list, the version and the collection's IR), so an unchanged
 *   collection is neither hashed again nor has its fields projected;
 * - per released version, whether its projection matched this very lock text;
 * - the whole comparison, when it found nothing (no refusals, no findings, the lock unchanged), keyed by the lock
 *   text, the API's name, the versions' settings, the released versions' projections and the options: then the
 *   lock is parsed only if something asks for it.
 */
import type { LockComparison } from '../lock/compare-lock.ts';
import { parseLockBytes, type LockFile, type LockProblem } from '../lock/lock-file.ts';
import type { Memo } from './memo.ts';
import type { ApiIR } from '../model/ir.ts';
import type { SeverityOverrides } from '../diff/types.ts';
import { stampOf, trusted } from './file-stamp.ts';
import { contentHash, type RunRecord } from './run-cache.ts';
import { bytesIfPresent } from '../write/output-folder.ts';

/** The lock file as read (undefined when there is none), its hash, and its parse on demand. */
export interface LockText {
  /** The hash of its bytes; undefined when there is no lock. */
  readonly hash: string | undefined;
  /** Its stamp and hash for the run record, stamped before it was read. */
  readonly input: RunRecord['inputs'][string];
  /** The parsed lock (undefined when there is none), or why it is malformed; parsed once. */
  parse(): { readonly ok: true; readonly lock: LockFile | undefined } | LockProblem;
}

/** What the last run recorded of the lock (its stamp and hash), and when: see {@link readLockText}. */
export interface RecordedLock {
  readonly input: RunRecord['inputs'][string];
  readonly recordedAt: bigint;
}

/**
 * Reads the lock at `file` without decoding or parsing it. When the last run of this restgen recorded the lock
 * under the stamp it has now (and the stamp is older than the record, see `trusted`), its hash is the recorded
 * one and the file is read only if something parses it: the lock of a large API is megabytes (2.4 MB at 200
 * collections), read and hashed on every run before. A lock that changed between the stamp and that read is
 * refused (run again), never judged under the hash of its earlier text.
 */
export function readLockText(file: string, recorded?: RecordedLock): LockText {
  const stamp = stampOf(file) ?? null;
  if (recorded && recorded.input.hash !== 'missing' && stamp !== null && trusted(recorded.input.stamp ?? undefined, stamp, recorded.recordedAt)) {
    const hash = recorded.input.hash;
    let parsed: ReturnType<LockText['parse']> | undefined;
    return {
      hash,
      input: { stamp, hash },
      parse: () => {
        if (parsed) return parsed;
        const bytes = bytesIfPresent(file);
        if (bytes === undefined || contentHash(bytes) !== hash)
          return (parsed = { ok: false, line: 1, message: `${file} changed while restgen read it; run restgen again` });
        return (parsed = parseLockBytes(file, bytes));
      },
    };
  }
  // No lock yet: nothing is released, or nothing was generated since the first release.
  const bytes = bytesIfPresent(file);
  const hash = bytes === undefined ? undefined : contentHash(bytes);
  let parsed: ReturnType<LockText['parse']> | undefined;
  return {
    hash,
    input: { stamp, hash: hash ?? 'missing' },
    parse: () => (parsed ??= bytes === undefined ? { ok: true, lock: undefined } : parseLockBytes(file, bytes)),
  };
}

/** How the lock is judged: the options of `generate` that decide it. */
export interface JudgeOptions {
  /** Record breaking changes to released versions in the lock instead of refusing them. */
  readonly acceptBreaking?: boolean;
  /** Why the breaks accepted with `acceptBreaking` are deliberate; recorded with each in the lock. */
  readonly acceptReason?: string;
  /** Severity overrides for the lock's judgement (the config file's `diff.severity`). */
  readonly severity?: SeverityOverrides;
  /** `YYYY-MM-DD`: judges whether a removed version's sunset has passed (the lock only; output never depends on it). */
  readonly today?: string;
}

/**
 * Judges `model` against the lock, through the render cache's facts (`memo`); `problem` when the lock is
 * malformed (RG181). The comparison's `nextLock` is read only when `changed` is true.
 */
export async function judgeLock(
  model: ApiIR,
  lockText: LockText,
  memo: Memo,
  options: JudgeOptions,
): Promise<LockComparison | { readonly problem: string; readonly line: number }> {
  const [{ compareWithLock }, { irHash, projectionHash, seedHash }, { project }] = await Promise.all([
    import('../lock/compare-lock.ts'),
    import('../emit/ir-hash.ts'),
    import('../model/project.ts'),
  ]);
  const versions = JSON.stringify(model.versions.map((v) => v.name));
  const source = new Map(model.collections.map((c) => [c.name, irHash(c)]));
  model.versions.forEach((v, at) => {
    for (const c of project(model, v.name).collections)
      seedHash(
        c,
        memo('projected collection', `${versions} ${at} ${source.get(c.key)}`, () => irHash(c), 'fact'),
      );
  });
  const settings = {
    ...(options.acceptBreaking ? { acceptBreaking: true } : {}),
    ...(options.acceptReason ? { acceptReason: options.acceptReason } : {}),
    ...(options.severity ? { severity: options.severity } : {}),
    ...(options.today ? { today: options.today } : {}),
  };
  const compare = (lock: LockFile | undefined): LockComparison =>
    compareWithLock(model, lock, {
      ...settings,
      // A released version whose projection matched this very lock before matches it now: its contract is not built again.
      matchesLock: (version, matches) =>
        memo('lock match', `${lockText.hash} ${version} ${projectionHash(project(model, version))}`, () => (matches() ? 'yes' : 'no'), 'fact') === 'yes',
    });
  // The lock holds released versions only: a quiet verdict depends on the API's name, the versions' settings (which
  // are released, deprecated, sunset) and the released versions' projections, not on an unreleased version's, so an
  // edit of the version being developed finds the verdict without parsing the lock.
  const versionSettings = model.versions.map((v) => [
    v.name,
    v.released ?? null,
    v.deprecated ?? null,
    v.sunset ?? null,
    v.released ? projectionHash(project(model, v.name)) : null,
  ]);
  const whole = JSON.stringify([lockText.hash ?? null, model.name, versionSettings, settings]);
  let outcome: LockComparison | { readonly problem: string; readonly line: number } | undefined;
  const run = (): LockComparison | { readonly problem: string; readonly line: number } => {
    const parsed = lockText.parse();
    return parsed.ok ? compare(parsed.lock) : { problem: parsed.message, line: parsed.line };
  };
  // Only a comparison that ran (so the lock parsed) and found nothing is recorded as quiet.
  const verdict = memo(
    'lock verdict',
    whole,
    () => {
      outcome = run();
      return 'problem' in outcome || outcome.diagnostics.length > 0 || outcome.findings.length > 0 || outcome.changed ? 'other' : 'quiet';
    },
    'fact',
  );
  if (outcome) return outcome;
  if (verdict !== 'quiet') return run();
  // Nothing to report and nothing to write: the lock stays as it is.
  return {
    diagnostics: [],
    findings: [],
    changed: false,
    get nextLock(): LockFile {
      const parsed = lockText.parse();
      if (!parsed.ok || !parsed.lock) throw new Error('internal error: a quiet lock verdict without a lock was asked for the next lock');
      return parsed.lock;
    },
  };
}
