/**
 * @module `restgen.lock.json`, beside the API module: reading, validating and writing it. Writing is
 * atomic (temp file + rename) with sorted keys and a trailing newline, so the bytes depend only on the
 * contracts.
 */
import path from 'node:path';
import type { AcceptedBreak } from '../diff/types.ts';
import { bytesIfPresent, writeAtomic } from '../write/output-folder.ts';
import type { VersionContract } from './contract.ts';

/** The lock file's name. */
export const LOCK_FILE_NAME = 'restgen.lock.json';

/**
 * The lock: the wire contract of every released version, by version name, and the breaking changes that
 * were made to released versions on purpose (`generate --accept-breaking`), by fingerprint: `check` and
 * `diff --base` both let those pass.
 */
export interface LockFile {
  readonly lockfileVersion: 1;
  readonly api: string;
  readonly versions: Readonly<Record<string, VersionContract>>;
  readonly accepted?: readonly AcceptedBreak[];
}

/** The lock file beside the API module at `apiPath`. */
export function lockPathFor(apiPath: string): string {
  return path.join(path.dirname(path.resolve(apiPath)), LOCK_FILE_NAME);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** How JSON writes a value that is not an object or array (`undefined` as in an array: null). */
function jsonScalar(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value;
}

/** True when an object member is written at all (JSON leaves out undefined, functions and symbols). */
const written = (value: unknown): boolean => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/**
 * True when `a` and `b` serialise to the same lock text: the same JSON data, whatever order object keys are in.
 * A deep comparison that builds nothing, so a released version that did not change costs one walk of its contract.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const objectA = typeof a === 'object' && a !== null;
  const objectB = typeof b === 'object' && b !== null;
  if (!objectA || !objectB) return !objectA && !objectB && jsonScalar(a) === jsonScalar(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(ra)) {
    if (!written(ra[key])) continue;
    count++;
    if (!Object.hasOwn(rb, key) || !sameJson(ra[key], rb[key])) return false;
  }
  for (const key of Object.keys(rb)) if (written(rb[key])) count--;
  return count === 0;
}

/** The lock's text: a note, sorted keys, two-space indent, trailing newline. */
export function serializeLock(lock: LockFile): string {
  const withNote = { '//': 'The wire contract of every released version, kept by restgen generate. Commit it; do not edit it.', ...lock };
  return JSON.stringify(sortKeys(withNote), null, 2) + '\n';
}

/** Why a lock file cannot be used, and the line of the file that shows it (1 when the file as a whole is wrong). */
export interface LockProblem {
  readonly ok: false;
  readonly message: string;
  readonly line: number;
}

/** The 1-based line of `text` that holds the character at `index`. */
const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** Parses a lock's text; a malformed lock is an error message with its line, never an exception. */
export function parseLock(text: string): { ok: true; lock: LockFile } | LockProblem {
  // A merge of two branches that both changed the lock: JSON.parse would only name a character position.
  const conflict = /^(?:<{7}|={7}|>{7})(?: |$)/m.exec(text);
  if (conflict)
    return {
      ok: false,
      line: lineAt(text, conflict.index),
      message:
        `has unresolved merge conflict markers (line ${lineAt(text, conflict.index)}: ${text.slice(conflict.index).split('\n', 1)[0]!.trimEnd()}); ` +
        'resolve the conflict: keep the "accepted" entries of both sides and either side\'s "versions", remove the markers, then run restgen generate (it brings the versions up to date with the merged API, and refuses what breaks them)',
    };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 names the character position ("at position 13"); an editor wants the line.
    const position = /at position (\d+)/.exec(message);
    return { ok: false, line: position ? lineAt(text, Number(position[1])) : 1, message: `is not valid JSON (${message}); restore it from version control` };
  }
  const o = data as { lockfileVersion?: unknown; api?: unknown; versions?: unknown } | null;
  if (
    !o ||
    typeof o !== 'object' ||
    o.lockfileVersion !== 1 ||
    typeof o.api !== 'string' ||
    !o.versions ||
    typeof o.versions !== 'object' ||
    Array.isArray(o.versions)
  )
    return { ok: false, line: 1, message: 'is not a restgen lock file (lockfileVersion 1 with api and versions expected); restore it from version control' };
  const accepted = (data as { accepted?: unknown }).accepted;
  if (accepted !== undefined && !isAcceptedList(accepted))
    return {
      ok: false,
      line: 1,
      message: 'has an "accepted" list whose entries lack a string fingerprint, version, id, location or message; restore it from version control',
    };
  return {
    ok: true,
    lock: { lockfileVersion: 1, api: o.api, versions: o.versions as Record<string, VersionContract>, ...(accepted?.length ? { accepted } : {}) },
  };
}

function isAcceptedList(value: unknown): value is AcceptedBreak[] {
  const text = (x: unknown) => typeof x === 'string';
  const optional = (x: unknown) => x === undefined || typeof x === 'string';
  return (
    Array.isArray(value) &&
    value.every((e: unknown) => {
      if (!e || typeof e !== 'object') return false;
      const a = e as Record<string, unknown>;
      return text(a.fingerprint) && text(a.version) && text(a.id) && text(a.location) && text(a.message) && optional(a.reason) && optional(a.acceptedOn);
    })
  );
}

/** The lock in `bytes` (as read from `file`), or why it is malformed, naming `file`. */
export function parseLockBytes(file: string, bytes: Buffer): { ok: true; lock: LockFile } | LockProblem {
  const parsed = parseLock(bytes.toString('utf8'));
  return parsed.ok ? parsed : { ...parsed, message: `${file} ${parsed.message}` };
}

/** Reads the lock at `file`: `lock` is undefined when there is none yet. */
export function readLockFile(file: string): { ok: true; lock: LockFile | undefined } | LockProblem {
  const bytes = bytesIfPresent(file);
  return bytes === undefined ? { ok: true, lock: undefined } : parseLockBytes(file, bytes);
}

/** Writes `lock` to `file` atomically; returns false (writing nothing) when the file already holds these bytes. */
export function writeLockFile(file: string, lock: LockFile): boolean {
  const text = serializeLock(lock);
  if (bytesIfPresent(file)?.toString('utf8') === text) return false;
  // As every generated file: a temporary file renamed into place (removed should the write fail), through a link.
  writeAtomic(file, text);
  return true;
}
