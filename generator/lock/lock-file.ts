/**
 * @module `restgen.lock.json`, beside the API module: reading, validating and writing it. Writing is
 * atomic (temp file + rename) with sorted keys and a trailing newline, so the bytes depend only on the
 * contracts.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptedBreak } from '../diff/types.ts';
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
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  return value;
}

/** An array index: JavaScript objects list such keys first, in numeric order, whatever order they were added in. */
const isIndex = (key: string): boolean => String(Number(key) >>> 0) === key && key !== '4294967295';

/** `value`'s keys in the order {@link sortKeys}'s copy lists them: array indexes first (ascending), then the rest sorted. */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  const indexes = keys.filter(isIndex);
  return indexes.length === 0 ? keys.sort() : [...indexes, ...keys.filter((k) => !isIndex(k)).sort()];
}

/**
 * `JSON.stringify(sortKeys(value))` without building the sorted copy: compact JSON with every object's keys
 * sorted, so equal data gives equal text whatever order its keys were built in.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Object members that JSON leaves out are skipped before they get here; elsewhere they print as null.
  const write = (v: unknown): void => {
    if (Array.isArray(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(',');
        write(item);
      });
      out.push(']');
    } else if (v && typeof v === 'object') {
      out.push('{');
      let first = true;
      for (const key of sortedKeys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        out.push(first ? '' : ',', JSON.stringify(key), ':');
        first = false;
        write(item);
      }
      out.push('}');
    } else out.push((JSON.stringify(v) as string | undefined) ?? 'null');
  };
  write(value);
  return out.join('');
}

/** The lock's text: a note, sorted keys, two-space indent, trailing newline. */
export function serializeLock(lock: LockFile): string {
  const withNote = { '//': 'The wire contract of every released version, kept by restgen generate. Commit it; do not edit it.', ...lock };
  return JSON.stringify(sortKeys(withNote), null, 2) + '\n';
}

/** Parses a lock's text; a malformed lock is an error message, never an exception. */
export function parseLock(text: string): { ok: true; lock: LockFile } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `is not valid JSON (${error instanceof Error ? error.message : String(error)}); restore it from version control` };
  }
  const o = data as { lockfileVersion?: unknown; api?: unknown; versions?: unknown } | null;
  if (!o || typeof o !== 'object' || o.lockfileVersion !== 1 || typeof o.api !== 'string' || !o.versions || typeof o.versions !== 'object' || Array.isArray(o.versions))
    return { ok: false, message: 'is not a restgen lock file (lockfileVersion 1 with api and versions expected); restore it from version control' };
  const accepted = (data as { accepted?: unknown }).accepted;
  if (accepted !== undefined && !isAcceptedList(accepted))
    return { ok: false, message: 'has an "accepted" list whose entries lack a string fingerprint, version, id, location or message; restore it from version control' };
  return { ok: true, lock: { lockfileVersion: 1, api: o.api, versions: o.versions as Record<string, VersionContract>, ...(accepted?.length ? { accepted } : {}) } };
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

/** Reads the lock at `file`: `lock` is undefined when there is none yet. */
export function readLockFile(file: string): { ok: true; lock: LockFile | undefined } | { ok: false; message: string } {
  if (!existsSync(file)) return { ok: true, lock: undefined };
  const parsed = parseLock(readFileSync(file, 'utf8'));
  return parsed.ok ? parsed : { ok: false, message: `${file} ${parsed.message}` };
}

/** Writes `lock` to `file` atomically; returns false (writing nothing) when the file already holds these bytes. */
export function writeLockFile(file: string, lock: LockFile): boolean {
  const text = serializeLock(lock);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
  return true;
}
