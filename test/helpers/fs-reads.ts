/**
 * Which files a piece of code reads, in process: fs.readFileSync and fs.openSync (for reading) are spied on
 * while it runs, and ES module imports of node:fs see the spies (live bindings, once synced).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { vi } from 'vitest';

/** Every file `run` reads (whole, or its first bytes through a descriptor) for which `counts` is true, in order. */
export async function filesRead<T>(counts: (file: string) => boolean, run: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const reads: string[] = [];
  const note = (file: unknown) => {
    if (typeof file === 'string' && counts(file)) reads.push(file);
  };
  const readFile = fs.readFileSync;
  const open = fs.openSync;
  // readFileSync without an encoding opens the file through fs.openSync: one read, counted once.
  let reading = false;
  vi.spyOn(fs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
    note(file);
    reading = true;
    try {
      return readFile(file, options as BufferEncoding);
    } finally {
      reading = false;
    }
  }) as typeof fs.readFileSync);
  vi.spyOn(fs, 'openSync').mockImplementation(((file: fs.PathLike, flags: fs.OpenMode) => {
    // Opened to be written (a temporary file the writer renames into place) is not a read.
    if (!reading && (flags === undefined || flags === 'r')) note(file);
    return open(file, flags);
  }) as typeof fs.openSync);
  syncBuiltinESMExports();
  try {
    return { result: await run(), reads };
  } finally {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
  }
}
