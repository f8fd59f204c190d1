/**
 * @module File stamps: what `stat` says about a file (size, modification and change times in nanoseconds,
 * inode), so that an unchanged file is recognised without reading it. Any write changes the times (a rename
 * or copy also the inode), so an equal stamp means equal content, with one exception git knows as "racy":
 * file system clocks tick in milliseconds, so a file changed in the same tick as a record was taken keeps
 * its stamp. A stamp is therefore trusted only when the file's times are older than the record's own
 * (`trusted`); otherwise the file is read.
 */
import { readdirSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import path from 'node:path';

/** `size:mtimeNs:ctimeNs:inode`. */
export type Stamp = string;

/** The stamp of a `stat` result. */
export function stampFromStats(s: BigIntStats): Stamp {
  return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
}

/** The stamp of `file`, or undefined when it does not exist (or cannot be read). */
export function stampOf(file: string): Stamp | undefined {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s?.isFile() ? stampFromStats(s) : undefined;
}

/** The later of a stamp's two times, in nanoseconds. */
export function stampTime(stamp: Stamp): bigint {
  const [, m = '0', c = '0'] = stamp.split(':');
  const mtime = BigInt(m);
  const ctime = BigInt(c);
  return mtime > ctime ? mtime : ctime;
}

/**
 * True when `current` proves the file unchanged since `recorded` was taken: the stamps are equal and the
 * file's last change is older than `recordedAt` (the time the record was written), so no later change in
 * the same clock tick can hide behind the same stamp.
 */
export function trusted(recorded: Stamp | undefined, current: Stamp | undefined, recordedAt: bigint): boolean {
  return recorded !== undefined && recorded === current && stampTime(recorded) < recordedAt;
}

/** A stamp of a whole folder tree: every file's relative path and stamp, and the newest file time in it. */
export function treeStamp(dir: string): { readonly stamp: string; readonly newest: bigint } | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  let newest = 0n;
  const parts: string[] = [];
  for (const file of files) {
    const s = statSync(file, { bigint: true });
    const stamp = stampFromStats(s);
    const time = stampTime(stamp);
    if (time > newest) newest = time;
    parts.push(`${path.relative(dir, file)}\0${stamp}`);
  }
  return { stamp: parts.join('\n'), newest };
}
