/**
 * The headers of a file download that are not the file: `Range` (RFC 9110 section 14.2; one range of bytes is
 * served, 206, or none fits, 416) and `Content-Disposition` (RFC 6266, the name in RFC 8187's `filename*` and an
 * ASCII `filename` for clients that read only that one).
 */
import type { ByteRange } from './file-store.js';

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeAsk =
  /** No range (none sent, or one the server ignores: another unit, several ranges, bad syntax): the whole file. */
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly range: ByteRange }
  /** No byte of the file is in the range: 416. */
  | { readonly kind: 'unsatisfiable' };

const SPEC = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * The range a `Range` header asks for: `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last n bytes). Several
 * ranges, another unit or a malformed value are ignored (RFC 9110 lets a server send the whole file instead).
 */
export function rangeOf(header: string | undefined, size: number): RangeAsk {
  if (header === undefined) return { kind: 'whole' };
  const match = SPEC.exec(header.replace(/\s+/g, ''));
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  // `bytes=5-2` is not a range (ignored); one that starts past the end is one that no byte satisfies.
  if (end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', range: { start, end: Math.min(end, size - 1) } };
}

/** RFC 8187's `attr-char`: what `filename*` keeps as it is; every other byte of the UTF-8 name is %-encoded. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

/** `attachment` with the file's name: `filename*=UTF-8''...` exactly, `filename="..."` as plain ASCII. */
export function dispositionOf(name: string): string {
  let encoded = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const c = String.fromCharCode(byte);
    encoded += byte < 0x80 && ATTR_CHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  // Printable ASCII only, and neither quote nor backslash, which would end or escape the quoted string.
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
