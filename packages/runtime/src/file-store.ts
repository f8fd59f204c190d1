/**
 * Where the content of uploaded files lives: the `FileStore` interface a server is given as `options.files`
 * (put, get and delete of streams, each put with the file's metadata), and `createDiskFileStore(dir)`, a store
 * in a folder for development and tests. An S3-compatible store implements the same three methods (see the
 * files guide): the runtime counts, hashes and checks every byte itself, so a store only keeps them.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What a store is told of a file it keeps (its size and SHA-256 are counted by the runtime while it streams). */
export interface FileInfo {
  /** The file name the upload gave, cleaned (no directories, no control characters). */
  readonly name: string;
  /** Its media type: one the field declares. */
  readonly type: string;
}

/** Bytes `start` to `end` of a file, both included (as HTTP ranges count them). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** A stored file's content as a store gives it back. */
export interface FileContent {
  /** The bytes asked for: the whole file, or the range. */
  readonly body: Readable;
  /** The size of the whole file in bytes (the runtime checks it against the size it recorded). */
  readonly size: number;
}

/**
 * Keeps the content of uploaded files. Keys are made by the runtime (`<collection>/<field>/<uuid>`), one per
 * upload, never reused. Every method may be called concurrently.
 */
export interface FileStore {
  /**
   * Keeps `content` under `key`, resolving once all of it is stored. `content` fails (and `put` must reject)
   * when the upload breaks a limit, its client goes away or its leading bytes do not fit its type: a store
   * then keeps nothing under `key` (the runtime also calls `delete`, so a store that cannot undo a partial
   * write may leave that to it).
   */
  put(key: string, content: Readable, info: FileInfo): Promise<void>;
  /** The content under `key` (only `range` of it when given), or null when nothing is stored there. */
  get(key: string, range?: ByteRange): Promise<FileContent | null>;
  /** Removes what `key` holds; a key that holds nothing is no error. */
  delete(key: string): Promise<void>;
}

/** A key the runtime makes: path segments of letters, digits, `_`, `-` and `.`, never `.` or `..` alone. */
const KEY = /^(?!\.{1,2}(?:\/|$))[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

/** True for a key a store may be asked about (one the runtime could have made). */
export const isFileKey = (key: string): boolean => key.length <= 512 && KEY.test(key);

const notFound = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ENOENT';

/**
 * A file store in the folder `dir` (created when missing): each file at `<dir>/<key>`, written to a temporary
 * name beside it and renamed into place once complete, so a reader never sees half a file and a failed upload
 * leaves nothing. For development and tests, and for a single server with a local disk; behind several
 * instances use a shared store (S3 and compatible services, see the files guide).
 */
export function createDiskFileStore(dir: string): FileStore {
  const root = path.resolve(dir);
  const where = (key: string): string => {
    if (!isFileKey(key)) throw new TypeError(`not a file key: ${JSON.stringify(key.slice(0, 80))}`);
    return path.join(root, ...key.split('/'));
  };
  return {
    async put(key, content) {
      const target = where(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.part`;
      try {
        await pipeline(content, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      // Opened first, then measured through the open handle: a file replaced or deleted in between is either
      // missing here (null) or read whole as it was when opened, never a stream that fails later.
      let handle: FileHandle;
      try {
        handle = await open(where(key), 'r');
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
        return { body, size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async delete(key) {
      await rm(where(key), { force: true });
    },
  };
}
