/**
 * @module The only code that touches the output folder. It reads what is there, tells restgen's files
 * from the user's, and applies a plan: atomic writes (temp file + rename) of changed files and removal
 * of generated files that are no longer produced. A user's file is never overwritten or deleted, and a file
 * generated from another API module (another output folder nested in this one) is never removed.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
  writeSync,
  writevSync,
  type BigIntStats,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import { isGenerated, sourceOf } from '../format/header.ts';

function head(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(600);
    const bytesRead = readSync(fd, buffer, 0, 600, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** {@link head}, or undefined when the file is gone (removed by another run since it was listed). */
function headIfPresent(file: string): string | undefined {
  try {
    return head(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Linux `statfs` types of the kernel's own file systems: their files are the kernel's, never a project's. */
const KERNEL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x1cd1, 'devpts'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0xde5e81e4, 'efivarfs'],
]);

/**
 * Why `outDir` cannot be an output folder, or undefined when it can. A run scans its output folder for the files
 * it generated there before (reading the first bytes of every file), so the root of the file system (an
 * unset variable in `--out "/$OUT"`) would scan the whole machine, and a kernel file system (`/proc`, `/sys`)
 * holds files whose reads fail or never end.
 */
export function unusableOutput(outDir: string): string | undefined {
  const resolved = path.resolve(outDir);
  if (path.dirname(resolved) === resolved) return `the output folder ${resolved} is the root of the file system`;
  if (process.platform !== 'linux') return undefined;
  let existing = resolved;
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  let kind: string | undefined;
  try {
    kind = KERNEL_FILE_SYSTEMS.get(Number(statfsSync(existing).type));
  } catch {
    // Not known: the folder is used, and reading or writing it reports its own error.
  }
  return kind ? `the output folder ${resolved} is on ${kind}, a file system of the kernel's` : undefined;
}

/** Calls `visit` with the absolute and relative POSIX path of every file in `outDir`, skipping `node_modules` and dot-folders. */
function walkOutput(outDir: string, visit: (full: string, rel: string) => void): void {
  if (!existsSync(outDir)) return;
  // Paths are joined by hand: path.join and path.relative normalise every segment again, which is most of
  // the cost of walking a folder of a thousand files on the up-to-date path.
  const walk = (dir: string, relDir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // Removed by another run on the same folder (--watch and a manual generate) while this one walked it.
      const code = (error as NodeJS.ErrnoException).code;
      if (relDir !== '' && (code === 'ENOENT' || code === 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = dir + path.sep + name;
      const rel = relDir + name;
      if (entry.isDirectory()) walk(full, `${rel}/`);
      else if (entry.isFile()) visit(full, rel);
    }
  };
  walk(path.resolve(outDir), '');
}

/**
 * The files of `outDir` (missing is fine) this run may remove: those generated from the API module at `sourcePath`
 * (relative to `outDir`, as headers name it), and the empty temporary files of a killed run. Files generated from
 * another module (another output folder inside this one: `--out .` over a project's `generated/`) and the
 * user's files are not. Synchronous on purpose: it reads the first bytes of hundreds of small files, where promise
 * overhead dominates. A file for which `known` answers true (the caller proved it one of them) is not read.
 */
export function ownFiles(outDir: string, sourcePath: string, known: (rel: string) => boolean = () => false): Set<string> {
  const own = new Set<string>();
  walkOutput(outDir, (full, rel) => {
    const text = known(rel) ? undefined : headIfPresent(full);
    // A file another run removed after the walk saw it is not there to keep or remove.
    if (known(rel) || (text !== undefined && isOwnFile(rel, text, full, sourcePath))) own.add(rel);
  });
  return own;
}

/** The name `writeAtomic` gives a temporary file for `file`: its own name, 12 hex digits, `.tmp` (TEMP_NAME). */
const tempFor = (file: string): string => `${file}.${randomBytes(6).toString('hex')}.tmp`;
const TEMP_NAME = /\.[0-9a-f]{12}\.tmp$/;
/** How old an empty temporary file must be to be a killed run's: a live run writes its first bytes at once. */
const LEFT_AFTER_MS = 60_000;

/**
 * An empty file named as `writeAtomic` names its temporary files, untouched for a minute: what a run killed
 * between creating the file and writing its first bytes leaves behind (its bytes start with restgen's
 * header, so a temporary file killed later is restgen's by its header). It holds nothing to lose, so it is
 * removed like a stale file. A younger one may be another run's, about to be written: it is left alone.
 */
function isLeftTemp(rel: string, text: string, file: string): boolean {
  if (text !== '' || !TEMP_NAME.test(rel)) return false;
  try {
    return Date.now() - statSync(file).mtimeMs > LEFT_AFTER_MS;
  } catch {
    // Renamed or removed since it was read: not there to remove.
    return false;
  }
}

/**
 * Whether `file` (at `rel` in its output folder), whose first bytes are `head`, is the run's of `sourcePath` to
 * remove: a file generated from that module (its header), or an empty temporary file left by a killed run.
 */
export const isOwnFile = (rel: string, head: string, file: string, sourcePath: string): boolean =>
  (isGenerated(head) && sourceOf(head) === sourcePath) || isLeftTemp(rel, head, file);

/**
 * The `stat` of every file `ownFiles` would see, by relative POSIX path, without reading any of them:
 * the up-to-date check compares these with what it recorded and reads only the files that changed.
 */
export function statOutput(outDir: string): Map<string, BigIntStats> {
  const stats = new Map<string, BigIntStats>();
  walkOutput(outDir, (full, rel) => {
    const stat = statSync(full, { bigint: true, throwIfNoEntry: false });
    if (stat) stats.set(rel, stat);
  });
  return stats;
}

/** The first bytes of a file of the output folder (enough for its generated-file header). */
export function readOutputHead(outDir: string, rel: string): string {
  return head(path.join(outDir, rel));
}

/** The bytes of `file`, or undefined when it does not exist. */
export function bytesIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a file of the output folder as bytes (see `readHeader`), or undefined when it does not exist. */
export function readOutputFile(outDir: string, rel: string): Buffer | undefined {
  return bytesIfPresent(path.join(outDir, rel));
}

/** True when `file` holds exactly `pieces`, one after the other. */
export function sameBytes(file: Uint8Array, pieces: readonly Uint8Array[]): boolean {
  let at = 0;
  for (const piece of pieces) {
    if (at + piece.length > file.length || Buffer.compare(piece, file.subarray(at, at + piece.length)) !== 0) return false;
    at += piece.length;
  }
  return at === file.length;
}

/**
 * The file a symbolic link at `file` leads to (followed to the end; a dangling link, to where it points), or
 * undefined when `file` is not a link. The link is the user's: renaming onto it would replace it with a file.
 */
function linkTarget(file: string): string | undefined {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (!stats?.isSymbolicLink()) return undefined;
  try {
    return realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return path.resolve(path.dirname(file), readlinkSync(file));
  }
}

/** What a file is written from: a text, or its bytes in pieces (written one after the other, never joined). */
export type FileContent = string | readonly Uint8Array[];

/** Writes every piece to `fd`: in one call (a regular file takes it all), the rest piece by piece should it not. */
function writePieces(fd: number, pieces: readonly Uint8Array[]): void {
  let written = writevSync(fd, pieces as Uint8Array[]);
  for (const piece of pieces) {
    if (written >= piece.length) {
      written -= piece.length;
      continue;
    }
    for (let at = written; at < piece.length; ) at += writeSync(fd, piece, at, piece.length - at);
    written = 0;
  }
}

/**
 * Writes `content` to `file` atomically: a reader sees the old file or the new one, never half of one. A
 * symbolic link at `file` (the user's, e.g. `CHANGES.md` linked from `docs/`) is kept and its target written:
 * the caller read the file through the link and found restgen's header there, or nothing.
 * Synchronous, like the scan: a generation writes hundreds of small files.
 */
export function writeAtomic(at: string, content: FileContent, madeDirs: Set<string> = new Set()): void {
  const file = linkTarget(at) ?? at;
  const dir = path.dirname(file);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  // A run killed before writing a byte leaves an empty file of this name, which later runs remove (isLeftTemp).
  const temp = tempFor(file);
  try {
    if (typeof content === 'string') writeFileSync(temp, content, 'utf8');
    else {
      const fd = openSync(temp, 'w');
      try {
        writePieces(fd, content);
      } finally {
        closeSync(fd);
      }
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Applies a plan: writes `writes` and removes `removals` (generated files only; the caller checked). */
export async function applyPlan(outDir: string, writes: readonly { path: string; content: FileContent }[], removals: readonly string[]): Promise<void> {
  const madeDirs = new Set<string>();
  for (const w of writes) writeAtomic(path.join(outDir, w.path), w.content, madeDirs);
  // Another run on the same folder (--watch and a manual generate) may have removed a file or folder first.
  for (const rel of removals) rmSync(path.join(outDir, rel), { force: true });
  // Remove folders the removals emptied, so a dropped version leaves no empty vN/ behind. rmdir removes only an
  // empty folder, whatever another run put there meanwhile.
  for (const dir of [...new Set(removals.map((r) => path.posix.dirname(r)))].sort().reverse()) {
    if (dir === '.') continue;
    try {
      rmdirSync(path.join(outDir, dir));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
}
