/**
 * @module File stamps: what `stat` says of a file (size, modification and change times in nanoseconds, inode), so
 * that an unchanged file is recognised without reading it. Any write changes the times (a rename or copy also the
 * inode), so an equal stamp means equal content, but for the case git calls "racy": file system clocks tick in
 * milliseconds, so a file changed in the same tick as a record was taken keeps its stamp. A stamp is therefore
 * trusted only when the file's times are older than the record ({@link trusted}); otherwise the file is read.
 */
import { readdirSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';

/** `size:mtimeNs:ctimeNs:inode`. */
export type Stamp = string;

/** The stamp of a `stat` result. */
export const stampFromStats = (s: BigIntStats): Stamp => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;

/** The stamp of `file`, or undefined when it is not a file (or cannot be read). */
export function stampOf(file: string): Stamp | undefined {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s?.isFile() ? stampFromStats(s) : undefined;
}

/** The later of a stamp's two times, in nanoseconds. */
function stampTime(stamp: Stamp): bigint {
  const [, m = '0', c = '0'] = stamp.split(':');
  return BigInt(m) > BigInt(c) ? BigInt(m) : BigInt(c);
}

/** True when `current` proves a file unchanged since `recorded` was taken by a record written at `recordedAt` (ns). */
export function trusted(recorded: Stamp | null | undefined, current: Stamp | undefined, recordedAt: bigint): boolean {
  return recorded != null && recorded === current && stampTime(recorded) < recordedAt;
}

/**
 * One stamp of every file below each of `dirs` (paths and stamps; a missing folder as such), and the newest
 * time among them: a folder changed after a record was written, in the same clock tick, must not pass as unchanged.
 */
export function treeStamp(dirs: readonly string[]): { readonly stamp: string; readonly newest: bigint } {
  let newest = 0n;
  const lines: string[] = [];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
    } catch {
      // Not there (a clone has no dist/, an install no generator/): its absence is part of the stamp.
      lines.push(`${dir}\0none`);
      continue;
    }
    for (const file of files) {
      const stamp = stampOf(file) ?? 'gone';
      if (stamp !== 'gone' && stampTime(stamp) > newest) newest = stampTime(stamp);
      lines.push(`${file}\0${stamp}`);
    }
  }
  return { stamp: lines.join('\n'), newest };
}
