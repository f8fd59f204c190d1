/**
 * What a file's leading bytes say about its type: a small table of signatures ("magic numbers") of the media
 * types uploads usually declare. An upload of a type with signatures must start with one of them; an upload
 * of a type without any (text, CSV, JSON, SVG, ...) must not start with a distinctive signature of another
 * type (a PNG renamed `.csv` is refused). A part sent as `application/octet-stream` is given the declared type
 * its bytes have a signature of. The table is a check against mislabelled files, not a parser: a file that
 * starts right may still be broken further on.
 */

/** Bytes at an offset; a string stands for its Latin-1 bytes (`'%PDF-'`). */
type Bytes = readonly number[] | string;

/** One signature: all of its parts must match, each at its offset. */
type Signature = readonly (readonly [offset: number, bytes: Bytes])[];

const at0 = (bytes: Bytes): Signature => [[0, bytes]];
const ZIP: readonly Signature[] = [at0('PK\x03\x04'), at0('PK\x05\x06'), at0('PK\x07\x08')];
/** An ISO base media file (MP4, QuickTime, AVIF, HEIF): a `ftyp` box first, with one of `brands`. */
const ftyp = (...brands: string[]): Signature[] => brands.map((b) => [[4, `ftyp${b}`]]);

/** The signatures of each media type restgen recognizes by its leading bytes. */
export const SIGNATURES: Readonly<Record<string, readonly Signature[]>> = {
  'application/pdf': [at0('%PDF-')],
  'image/png': [at0([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/jpeg': [at0([0xff, 0xd8, 0xff])],
  'image/gif': [at0('GIF87a'), at0('GIF89a')],
  'image/webp': [
    [
      [0, 'RIFF'],
      [8, 'WEBP'],
    ],
  ],
  'image/tiff': [at0('II*\x00'), at0('MM\x00*')],
  'image/bmp': [at0('BM')],
  'image/avif': ftyp('avif', 'avis'),
  'image/heic': ftyp('heic', 'heix', 'heim', 'heis'),
  'video/mp4': ftyp('isom', 'iso2', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash'),
  'video/quicktime': ftyp('qt  '),
  'video/webm': [at0([0x1a, 0x45, 0xdf, 0xa3])],
  'audio/mpeg': [at0('ID3'), at0([0xff, 0xfb]), at0([0xff, 0xf3]), at0([0xff, 0xf2])],
  'audio/wav': [
    [
      [0, 'RIFF'],
      [8, 'WAVE'],
    ],
  ],
  'audio/ogg': [at0('OggS')],
  'audio/flac': [at0('fLaC')],
  'application/zip': ZIP,
  'application/epub+zip': ZIP,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ZIP,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ZIP,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ZIP,
  'application/vnd.oasis.opendocument.text': ZIP,
  'application/vnd.oasis.opendocument.spreadsheet': ZIP,
  'application/gzip': [at0([0x1f, 0x8b])],
  'application/x-7z-compressed': [at0([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
  'application/wasm': [at0([0x00, 0x61, 0x73, 0x6d])],
  'font/woff': [at0('wOFF')],
  'font/woff2': [at0('wOF2')],
};

/** The most leading bytes any signature reads: a sniffer needs no more. */
export const SNIFF_BYTES = Math.max(...Object.values(SIGNATURES).flatMap((sigs) => sigs.flatMap((s) => s.map(([o, b]) => o + b.length))));

const byteAt = (bytes: Bytes, i: number): number => (typeof bytes === 'string' ? bytes.charCodeAt(i) : bytes[i]!);

function matches(head: Uint8Array, signature: Signature): boolean {
  return signature.every(([offset, bytes]) => {
    if (head.length < offset + bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== byteAt(bytes, i)) return false;
    return true;
  });
}

/**
 * A signature that text cannot start with by chance: four bytes or more, or a first byte outside ASCII (no
 * UTF-8 text starts with 0xFF). `BM` or `ID3` may begin a line of a CSV.
 */
const distinctive = (signature: Signature): boolean => signature.some(([, b]) => b.length >= 4 || byteAt(b, 0) > 0x7f);

/** Whether `type` has signatures in the table. */
export const hasSignature = (type: string): boolean => Object.hasOwn(SIGNATURES, type);

/** The type of the table whose signature `head` starts with, among `types` (null when none). */
export function sniffAmong(head: Uint8Array, types: readonly string[]): string | null {
  return types.find((t) => hasSignature(t) && SIGNATURES[t]!.some((s) => matches(head, s))) ?? null;
}

/** The verdict on a file declared as `type` whose content starts with `head` (at least {@link SNIFF_BYTES}, or all of a shorter file). */
export type Sniffed = { readonly ok: true } | { readonly ok: false; readonly looksLike: string | null };

/** Whether content starting with `head` may be a `type`: its signature when it has one, else no distinctive signature of another type. */
export function sniff(type: string, head: Uint8Array): Sniffed {
  if (hasSignature(type)) return SIGNATURES[type]!.some((s) => matches(head, s)) ? { ok: true } : { ok: false, looksLike: lookalike(head) };
  const other = Object.entries(SIGNATURES).find(([t, sigs]) => t !== type && sigs.some((s) => distinctive(s) && matches(head, s)));
  return other === undefined ? { ok: true } : { ok: false, looksLike: other[0] };
}

/** The first type of the table `head` has a signature of, for messages. */
function lookalike(head: Uint8Array): string | null {
  return Object.entries(SIGNATURES).find(([, sigs]) => sigs.some((s) => matches(head, s)))?.[0] ?? null;
}
