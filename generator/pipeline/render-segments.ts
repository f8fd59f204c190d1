/**
 * @module The render cache's segment files (see `render-cache.ts`): texts one after the other, as UTF-8 bytes,
 * read by byte offset and length and checked against the CRC-32 the index holds for them. {@link Segments} reads the
 * segments an index names; {@link SegmentWriter} writes a run's new segment while the run renders, and reads back
 * what it wrote.
 */
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

let zlibCrc32: ((data: string | Uint8Array) => number) | undefined;
/** zlib's CRC-32, loaded on first use: a run answered up to date never reads a segment, nor loads node:zlib. */
const crc32 = (data: string | Uint8Array): number => (zlibCrc32 ??= process.getBuiltinModule('node:zlib').crc32)(data);

/**
 * Where an entry's text is: segment (index into `segments`), byte offset, byte length, the generation that last used
 * it, and the CRC-32 of its bytes. A text is used only when its bytes still have that CRC: a segment changed on disk
 * (a sync tool, a disk, a hand) would otherwise put its bytes into generated files.
 */
export type Location = readonly [number, number, number, number, number];

/** Where {@link SegmentWriter.append} put a text in its segment: byte offset, byte length, CRC-32 of the bytes. */
export type Appended = readonly [number, number, number];

/** The segments of one index, opened on first use; a missing or short segment only turns its entries into misses. */
export class Segments {
  private readonly fds = new Map<number, { fd: number; size: number } | null>();
  constructor(
    private readonly dir: string,
    readonly names: readonly string[],
  ) {}

  private open(segment: number): { fd: number; size: number } | null {
    let open = this.fds.get(segment);
    if (open === undefined) {
      try {
        const fd = openSync(path.join(this.dir, this.names[segment] ?? ''), 'r');
        open = { fd, size: fstatSync(fd).size };
      } catch {
        // Removed by a concurrent save, or never written: its entries are rendered again.
        open = null;
      }
      this.fds.set(segment, open);
    }
    return open;
  }

  /** The segment's size in bytes; 0 when it is gone. */
  size(segment: number): number {
    return this.open(segment)?.size ?? 0;
  }

  /** The bytes of `at`, or undefined when its segment is gone, too short, or holds other bytes there. */
  read(at: Location): Buffer | undefined {
    const [segment, offset, length, , crc] = at;
    const open = this.open(segment);
    if (!open || offset + length > open.size) return undefined;
    const bytes = Buffer.allocUnsafe(length);
    return readSync(open.fd, bytes, 0, length, offset) === length && crc32(bytes) === crc ? bytes : undefined;
  }

  close(): void {
    for (const open of this.fds.values()) if (open) closeSync(open.fd);
    this.fds.clear();
  }
}

/** Removes a file this cache wrote, if it can: a path that cannot hold it (a file where a folder should be) holds nothing. */
export function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // ENOTDIR, EACCES: nothing of the cache's is there, or nothing can be done about it.
  }
}

/**
 * A segment written while a run renders: each text is appended (in chunks of about a megabyte) as it is computed,
 * so a run holds the location of what it rendered, not the text (86 MB of files and parts at 1,000 collections),
 * and can read a text back when it is asked for again.
 */
export class SegmentWriter {
  private fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  /** Bytes written or pending: the offset of the next text. */
  private size = 0;
  /** Bytes on disk. */
  private written = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w+');
  }

  /** Appends a text; returns its byte offset, its length in bytes and the CRC-32 of those bytes. */
  append(text: string | Buffer): Appended {
    const offset = this.size;
    if (typeof text !== 'string') {
      this.flush();
      writeSync(this.fd, text, 0, text.length, this.written);
      this.written += text.length;
      this.size += text.length;
      return [offset, text.length, crc32(text)];
    }
    const length = Buffer.byteLength(text, 'utf8');
    this.pending.push(text);
    this.pendingChars += text.length;
    this.size += length;
    if (this.pendingChars >= 1 << 20) this.flush();
    // zlib's CRC-32 of a string is that of its UTF-8 bytes.
    return [offset, length, crc32(text)];
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingChars = 0;
    writeSync(this.fd, bytes, 0, bytes.length, this.written);
    this.written += bytes.length;
  }

  /** The text appended at `offset` with `length` bytes. */
  read(offset: number, length: number): string {
    if (offset + length > this.written) this.flush();
    const bytes = Buffer.allocUnsafe(length);
    if (readSync(this.fd, bytes, 0, length, offset) !== length) throw new Error(`internal error: render cache segment ${this.file} is short`);
    return bytes.toString('utf8');
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
