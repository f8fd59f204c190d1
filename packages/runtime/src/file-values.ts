/**
 * File values between the wire and the handlers. A handler receives (and keeps) a {@link StoredFile}: the
 * upload's metadata and the key of its content in the file store. An answer shows a file as its metadata and
 * the path it is downloaded from (`href`), never the key. The runtime marks each file it stored with a symbol,
 * which no JSON or XML body can carry: a body cannot point a resource at content it did not upload.
 */
import { isRecord } from './guards.js';
import type { FileFieldSpec, RouteSpec } from './spec.js';

/** What the server keeps of an uploaded file; handlers store it as they store any other field's value. */
export interface StoredFile {
  /** The file name the upload gave (directories and control characters removed). */
  readonly name: string;
  /** Its media type, one of the field's types. */
  readonly type: string;
  /** Its size in bytes. */
  readonly size: number;
  /** The SHA-256 of its content, lower-case hex. */
  readonly sha256: string;
  /** Where the file store keeps its content. */
  readonly key: string;
}

/** A file as answers show it: its metadata and where to download it. */
export interface FileMetadata {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly href: string;
}

/**
 * `T` (a resource type of the newest version) with the file fields `K` as handlers hold them: a
 * {@link StoredFile} where answers show {@link FileMetadata} (`| null` and optionality kept).
 */
export type WithStoredFiles<T, K extends keyof T> = {
  [P in keyof T]: P extends K ? (T[P] extends FileMetadata ? StoredFile : Exclude<T[P], FileMetadata> | StoredFile) : T[P];
};

/** The mark of a file the runtime stored (the generated zod helpers check the same symbol). */
const UPLOADED = Symbol.for('restgen.uploaded-file');

/** A stored file as a request body carries it to the schema and the handler: marked as uploaded. */
export function uploaded(file: StoredFile): StoredFile {
  return Object.defineProperty({ ...file }, UPLOADED, { value: true, enumerable: false });
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Whether a value is a stored file as handlers keep it. */
export function isStoredFile(value: unknown): value is StoredFile {
  if (!isRecord(value)) return false;
  const { name, type, size, sha256, key } = value;
  return (
    typeof name === 'string' &&
    typeof type === 'string' &&
    typeof size === 'number' &&
    Number.isSafeInteger(size) &&
    size >= 0 &&
    typeof sha256 === 'string' &&
    SHA256.test(sha256) &&
    typeof key === 'string'
  );
}

/** Characters no file name keeps: C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A file name as it is kept: the last segment of what the client sent (either slash), without control
 * characters, trimmed, at most 255 characters; `file` when nothing is left.
 */
export function cleanFileName(sent: string | undefined): string {
  const last = (sent ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...last.replace(CONTROL, '').trim()].slice(0, 255).join('');
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** The version's file fields by their newest name: the name this version gives each. */
export function fileNamesOf(route: RouteSpec): ReadonlyMap<string, string> {
  return new Map(Object.entries(route.files ?? {}).map(([name, spec]) => [spec.key, name]));
}

/**
 * Turns a resource as handlers return it (newest version) into one whose files are shown: each stored file
 * becomes its metadata and `href`, `<base>/<id>/<field>` with the field's name in this version. Anything
 * else is left for the response schema to judge.
 */
export function createFileLinker(route: RouteSpec, base: string): (resource: unknown) => unknown {
  const names = fileNamesOf(route);
  return (resource) => {
    if (!isRecord(resource) || Array.isArray(resource)) return resource;
    const id = resource[route.id];
    let out: Record<string, unknown> | null = null;
    for (const [key, name] of names) {
      const file = resource[key];
      if (!isStoredFile(file) || typeof id !== 'string') continue;
      out ??= { ...resource };
      out[key] = { name: file.name, type: file.type, size: file.size, sha256: file.sha256, href: `${base}/${encodeURIComponent(id)}/${name}` };
    }
    return out ?? resource;
  };
}

/** The keys of the content a resource (newest version) refers to through its file fields; null when it cannot be read. */
export function fileKeysOf(files: readonly FileFieldSpec[], resource: unknown): string[] | null {
  if (!isRecord(resource)) return [];
  try {
    return files.flatMap((f) => {
      const file = resource[f.key];
      return isStoredFile(file) ? [file.key] : [];
    });
  } catch {
    // A handler's value whose properties throw when read (a hostile getter, a Proxy).
    return null;
  }
}
