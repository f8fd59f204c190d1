/**
 * @module A generate session: what one resident process (`restgen generate --watch`) keeps in memory from one
 * run of {@link generate} to the next, so that an edit costs what it changes rather than what the API is:
 * - each collection's built IR and diagnostics, under the fingerprint of its definition (`collection-reuse.ts`),
 *   and with them every projection and hash computed from them;
 * - the render cache's index and decoded texts (`render-cache.ts`);
 * - the run record, and the lock's text with its hash and parse (reused while their files' stamps are unchanged);
 * - the formatter, with prettier and the configuration it resolved.
 * Nothing held decides output: each piece stands for a file only while that file is provably unchanged, and is
 * read again otherwise (another process's run, an edit of the lock), so a session's run writes exactly what a
 * fresh run writes. A run that fails keeps nothing it did not finish.
 */
import { createPrettierFormatter, type Formatter } from '../format/formatter.ts';
import { createCollectionReuse, type CollectionReuse } from '../model/collection-reuse.ts';
import { stampOf, stampTime, type Stamp } from './file-stamp.ts';
import type { LockText } from './lock-verdict.ts';
import { createResidentRenderCache, type ResidentRenderCache } from './render-cache.ts';
import { cacheFile, readRecord, restgenStamp, type SavedRecord } from './run-cache.ts';

/** What one resident process keeps across runs of `generate`; see the module comment. Create with {@link createGenerateSession}. */
export interface GenerateSession {
  readonly formatter: Formatter;
  /** @internal Built collections of the last build. */
  readonly collections: CollectionReuse;
  /** @internal The render cache's index and texts. */
  readonly renderCache: ResidentRenderCache;
  /** @internal The run record as last read or written, with its file's stamp. */
  record?: { readonly file: string; readonly stamp: Stamp; readonly saved: SavedRecord };
  /** @internal The lock as last read, with its stamp. */
  lock?: { readonly file: string; readonly stamp: Stamp; readonly text: LockText };
  /** @internal restgen's own files, stamped once (see {@link sessionRestgenStamp}). */
  restgen?: ReturnType<typeof restgenStamp>;
}

/** A new, empty session; `formatter` defaults to a prettier formatter of its own. */
export function createGenerateSession(formatter: Formatter = createPrettierFormatter()): GenerateSession {
  return { formatter, collections: createCollectionReuse(), renderCache: createResidentRenderCache() };
}

/** The run record of the (API, output, templates) triple: the one the session holds while its file is unchanged, else read. */
export function sessionRecord(
  session: GenerateSession | undefined,
  apiPath: string,
  outDir: string,
  templatesDir: string | undefined,
): SavedRecord | undefined {
  if (!session) return readRecord(apiPath, outDir, templatesDir);
  const file = cacheFile(apiPath, outDir, templatesDir);
  const stamp = stampOf(file);
  const held = session.record;
  // A save renames a new file into place: another process's save always changes the inode, so an equal stamp is this very file.
  if (held && held.file === file && stamp !== undefined && held.stamp === stamp) return held.saved;
  delete session.record;
  const saved = readRecord(apiPath, outDir, templatesDir);
  // Held only when the stamp taken before the read is still the file's after it: nothing replaced it in between.
  if (saved && stamp !== undefined && stampOf(file) === stamp) session.record = { file, stamp, saved };
  return saved;
}

/** Holds the record a run just saved (`saved`: what `saveRecord` returned; undefined when it failed). */
export function holdRecord(
  session: GenerateSession | undefined,
  apiPath: string,
  outDir: string,
  templatesDir: string | undefined,
  saved: (SavedRecord & { readonly stamp: Stamp }) | undefined,
): void {
  if (!session) return;
  delete session.record;
  if (saved)
    session.record = { file: cacheFile(apiPath, outDir, templatesDir), stamp: saved.stamp, saved: { record: saved.record, recordedAt: saved.recordedAt } };
}

/**
 * The stamp of restgen's own code, templates and runtime, taken once per session: the process runs the code it
 * loaded, its runtime files are read once per process and its identity is hashed once per process (see
 * `code-identity.ts`), so a session stands for one restgen throughout. Template overrides are stamped every run.
 */
export function sessionRestgenStamp(session: GenerateSession): ReturnType<typeof restgenStamp> {
  return (session.restgen ??= restgenStamp());
}

/** How long a file must have stood unchanged before its stamp alone vouches for it (a write in the same clock tick keeps the stamp). */
const SETTLED_NS = 2_000_000_000n;

/**
 * The lock's text: the one the session holds while the lock's stamp is unchanged, else `read` (and held when the
 * lock had stood still long enough before it was read for its stamp to tell every later write).
 */
export function sessionLockText(session: GenerateSession | undefined, file: string, read: (file: string) => LockText): LockText {
  if (!session) return read(file);
  const stamp = stampOf(file);
  const held = session.lock;
  if (held && held.file === file && stamp !== undefined && held.stamp === stamp) return held.text;
  delete session.lock;
  const text = read(file);
  const now = BigInt(Date.now()) * 1_000_000n;
  if (stamp !== undefined && text.input.stamp === stamp && stampTime(stamp) + SETTLED_NS < now) session.lock = { file, stamp, text };
  return text;
}

/** Forgets the lock the session holds (the run rewrote it). */
export function forgetLock(session: GenerateSession | undefined): void {
  if (session) delete session.lock;
}
