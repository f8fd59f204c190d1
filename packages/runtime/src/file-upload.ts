/**
 * A `multipart/form-data` body read part by part (`@fastify/multipart`, on busboy): each file part is streamed
 * to the file store while its bytes are counted (413 as soon as they pass the field's `maxBytes`), hashed
 * (SHA-256) and its leading bytes checked against its type (415: a type the field does not declare, or content
 * that does not look like it); the other parts are the body's other fields, read as a JSON body's would be
 * (`text/plain` parts typed by the schema as XML text is, `application/json` parts as JSON), within the body
 * limit. Nothing is buffered whole. Whatever fails, every file stored for the request is deleted before the
 * answer: a failed upload leaves nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { FileStore } from './file-store.js';
import { SNIFF_BYTES, hasSignature, sniff, sniffAmong } from './file-sniff.js';
import { cleanFileName, uploaded, type StoredFile } from './file-values.js';
import { logSafely } from './contain.js';
import { isInstance } from './guards.js';
import { INTERNAL, problem, type Problem, type ProblemIssue } from './problems.js';
import type { FileFieldSpec, MultipartPluginOptions, RouteSpec } from './spec.js';
import { XmlElement } from './xml-read.js';
import { valueOfXml } from './xml-value.js';

/** One part as `@fastify/multipart` gives it. */
type Part =
  | {
      readonly type: 'field';
      readonly fieldname: string;
      readonly value: unknown;
      readonly mimetype: string;
      readonly valueTruncated: boolean;
      readonly fieldnameTruncated: boolean;
    }
  | { readonly type: 'file'; readonly fieldname: string; readonly filename: string; readonly mimetype: string; readonly file: Readable };

/** A request `@fastify/multipart` decorated. */
interface MultipartRequest {
  isMultipart(): boolean;
  parts(options: Partial<MultipartPluginOptions>): AsyncIterable<Part>;
}

/** Whether a request carries a multipart body (only APIs with file fields read them). */
export const isMultipart = (request: FastifyRequest): boolean => (request as Partial<MultipartRequest>).isMultipart?.() === true;

/** A refusal while reading: the problem to answer with. */
class Refused extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

/** The file store's own failure: answered 500 (and logged), never read as the client's fault. */
class StoreFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the file store failed');
  }
}

/** What reading an upload came to: the body (files in place), the files stored, and the problems the schema cannot see. */
export type Upload =
  | {
      readonly ok: true;
      readonly body: Record<string, unknown>;
      readonly stored: readonly StoredFile[];
      /** Problems with parts no schema sees (a file where a field is not one, a part sent twice). */
      readonly issues: readonly ProblemIssue[];
      /** What an `Idempotency-Key` compares: the body with each file as its content's hash. */
      readonly fingerprint: unknown;
    }
  | { readonly ok: false; readonly problem: Problem; readonly error?: unknown };

const pointerOf = (name: string): string => `#/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The media type of a part's `Content-Type`: lower-case, without parameters. */
const mediaOf = (mimetype: string): string => (mimetype.split(';')[0] ?? '').trim().toLowerCase();

/** The options of the multipart reader for a route: per-part limits, within the API's body limit. */
export function uploadLimits(route: RouteSpec, bodyLimit: number): Partial<MultipartPluginOptions> {
  const files = Object.values(route.files ?? {});
  return {
    limits: {
      fieldNameSize: 200,
      fieldSize: bodyLimit,
      fields: 1000,
      // One byte past the largest maxBytes: the runtime's own count answers 413 first.
      fileSize: Math.max(...files.map((f) => f.maxBytes)) + 1,
      files: files.length + 1,
      parts: 1000,
      headerPairs: 100,
    },
    throwFileSizeLimit: true,
  };
}

/** The problems `@fastify/multipart` and busboy raise, as the problems the route answers. */
function problemOf(error: unknown): Problem | null {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return problem(413, 'payload_too_large', 'A file part is larger than its field allows.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return problem(
        413,
        'payload_too_large',
        `The multipart body has too many ${code === 'FST_FILES_LIMIT' ? 'files' : code === 'FST_FIELDS_LIMIT' ? 'fields' : 'parts'}.`,
      );
    case 'FST_PROTO_VIOLATION':
      return problem(
        400,
        'bad_request',
        'A part of the multipart body is named after a property every object has (such as __proto__); no field has that name.',
      );
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return problem(400, 'bad_request', 'A part of the multipart body declared as application/json is not JSON.');
    case 'FST_MP_PREMATURE_CLOSE':
      return problem(400, 'bad_request', 'The request ended before the multipart body did.');
  }
  if (/multipart|boundary|part|form|header/i.test(message)) return problem(400, 'bad_request', `The multipart body is malformed (${message}).`);
  return null;
}

/** A request whose multipart body broke off or could not be read. */
const MALFORMED = problem(400, 'bad_request', 'The multipart body is malformed or ended early.');

/**
 * The bytes of one file part on their way to the store: counted (413 past `maxBytes`), hashed, and their
 * leading bytes checked against the type (415). It fails the stream, which fails the store's `put`.
 */
class Inspection extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer = Buffer.alloc(0);
  /** The stored type once the leading bytes decided it. */
  type: string | null = null;

  constructor(
    private readonly field: string,
    private readonly spec: FileFieldSpec,
    private readonly declared: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.spec.maxBytes)
      return done(
        new Refused(
          problem(413, 'payload_too_large', `${this.field}: the file is larger than ${this.spec.maxBytes} bytes.`, {
            errors: [{ pointer: pointerOf(this.field), detail: `larger than ${this.spec.maxBytes} bytes` }],
          }),
        ),
      );
    this.hash.update(chunk);
    if (this.type === null && this.head.length < SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
      if (this.head.length >= SNIFF_BYTES) {
        const refused = this.decide();
        if (refused) return done(refused);
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.type === null ? this.decide() : null);
  }

  /** The SHA-256 of every byte that went through, in hex. */
  digest(): string {
    return this.hash.digest('hex');
  }

  /** Decides the stored type from the leading bytes, or the refusal (415). */
  private decide(): Refused | null {
    const { declared, spec, field } = this;
    const refuse = (detail: string) =>
      new Refused(problem(415, 'unsupported_media_type', `${field}: ${detail}`, { errors: [{ pointer: pointerOf(field), detail }] }));
    if (declared === 'application/octet-stream' && !spec.types.includes(declared)) {
      const found = sniffAmong(this.head, spec.types);
      if (found === null) return refuse(`the part declares no type and its content is none of ${spec.types.join(', ')}; send the part with its Content-Type.`);
      this.type = found;
      return null;
    }
    const verdict = sniff(declared, this.head);
    if (!verdict.ok)
      return refuse(
        hasSignature(declared)
          ? `the content does not start as ${declared} does${verdict.looksLike ? ` (it looks like ${verdict.looksLike})` : ''}.`
          : `the part says ${declared}, but its content looks like ${verdict.looksLike}.`,
      );
    this.type = declared;
    return null;
  }
}

/** Streams one file part to the store; the stored file, or throws {@link Refused} (the store's own failure as it is). */
async function storeFile(store: FileStore, collection: string, field: string, spec: FileFieldSpec, part: Extract<Part, { type: 'file' }>): Promise<StoredFile> {
  // busboy reads a part without a Content-Type as text/plain; for a file that means no type said (RFC 7578
  // labels such content application/octet-stream), unless the field takes text/plain.
  const said = mediaOf(part.mimetype);
  const declared = said === '' || (said === 'text/plain' && !spec.types.includes(said)) ? 'application/octet-stream' : said;
  if (declared !== 'application/octet-stream' && !spec.types.includes(declared)) {
    const detail = `${declared} is not a type this field takes (${spec.types.join(', ')}).`;
    throw new Refused(problem(415, 'unsupported_media_type', `${field}: ${detail}`, { errors: [{ pointer: pointerOf(field), detail }] }));
  }
  const inspection = new Inspection(field, spec, declared);
  const name = cleanFileName(part.filename);
  const key = `${collection}/${spec.key}/${randomUUID()}`;
  // The request's own stream failing (a cut or malformed body) is the client's fault; the store failing is not.
  const incoming: { broke: boolean; error?: unknown } = { broke: false };
  part.file.on('error', (error) => {
    incoming.broke = true;
    incoming.error = error;
    inspection.destroy(error);
  });
  // Bytes flow before the store's put starts reading (it may create a folder first): a refusal then waits
  // for the store to see it (as the stream's own error), without crashing the process meanwhile.
  inspection.on('error', () => undefined);
  part.file.pipe(inspection);
  const file = { name, type: declared, size: 0, sha256: '', key };
  try {
    await settled(() => store.put(key, inspection, { name, type: declared === 'application/octet-stream' ? (spec.types[0] ?? declared) : declared }));
  } catch (error) {
    await removeQuietly(store, key);
    // The stream's own refusal (413, 415) wins over however the store reported the failed stream; a broken
    // request is a 400; anything else is the store's failure (a 500, logged), whatever its message says.
    const refusal = inspection.errored as unknown;
    if (isInstance(refusal, Refused)) throw refusal;
    if (incoming.broke) throw new Refused(problemOf(incoming.error) ?? MALFORMED);
    throw new StoreFailed(error);
  }
  // A store that resolved before reading every byte kept a truncated file: that is the store's failure.
  if (!inspection.readableEnded && !inspection.writableFinished) {
    await removeQuietly(store, key);
    throw new StoreFailed(new Error(`the file store resolved put(${key}) before reading the whole file`));
  }
  return { ...file, type: inspection.type ?? declared, size: inspection.size, sha256: inspection.digest() };
}

/**
 * Reads a multipart body of `route` (its file fields by this version's names) into the body `schema` checks:
 * files stored, fields typed. On any refusal every file stored so far is deleted.
 */
export async function readUpload(request: FastifyRequest, route: RouteSpec, schema: z.ZodType, store: FileStore, bodyLimit: number): Promise<Upload> {
  const files = route.files ?? {};
  const stored: StoredFile[] = [];
  const issues: ProblemIssue[] = [];
  const texts = new XmlElement('body', false);
  const typed = new Map<string, unknown>();
  const fileParts = new Map<string, StoredFile>();
  const seen = new Set<string>();
  let textBytes = 0;
  const twice = (name: string) => issues.push({ pointer: pointerOf(name), detail: 'sent twice: send each field as one part' });
  try {
    for await (const part of (request as unknown as MultipartRequest).parts(uploadLimits(route, bodyLimit))) {
      const name = part.fieldname;
      if (part.type === 'file') {
        const spec = Object.hasOwn(files, name) ? files[name] : undefined;
        if (spec === undefined || seen.has(name)) {
          if (seen.has(name)) twice(name);
          else issues.push({ pointer: pointerOf(name), detail: 'a file part, but this field is not a file: send its value as a part without a file name' });
          await finished(part.file.resume()).catch(() => undefined);
          continue;
        }
        seen.add(name);
        const file = await storeFile(store, route.collection.key, name, spec, part);
        stored.push(file);
        fileParts.set(name, file);
        continue;
      }
      if (part.valueTruncated || part.fieldnameTruncated)
        throw new Refused(problem(413, 'payload_too_large', `The part ${JSON.stringify(name.slice(0, 60))} is too large.`));
      const text = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      textBytes += Buffer.byteLength(text ?? '') + Buffer.byteLength(name);
      if (textBytes > bodyLimit) throw new Refused(problem(413, 'payload_too_large', `The fields of the multipart body hold more than ${bodyLimit} bytes.`));
      if (seen.has(name)) {
        twice(name);
        continue;
      }
      seen.add(name);
      // A JSON part is the value it holds; any other part is text, typed by the schema as XML text is.
      if (mediaOf(part.mimetype) === 'application/json') typed.set(name, part.value);
      else {
        const element = new XmlElement(name, false);
        element.text = typeof part.value === 'string' ? part.value : '';
        texts.children.push(element);
      }
    }
  } catch (error) {
    await Promise.all(stored.map((f) => removeQuietly(store, f.key)));
    if (isInstance(error, Refused)) return { ok: false, problem: error.problem };
    if (isInstance(error, StoreFailed)) return { ok: false, problem: INTERNAL, error: error.failure };
    const known = problemOf(error);
    if (known !== null) return { ok: false, problem: known };
    return { ok: false, problem: problem(500, 'internal_error', 'The server failed to answer; the error has been logged.'), error };
  }
  const read = valueOfXml(texts, schema);
  const body: Record<string, unknown> = typeof read === 'object' && read !== null && !Array.isArray(read) ? { ...read } : {};
  for (const [name, value] of typed) body[name] = value;
  const fingerprint: Record<string, unknown> = { ...body };
  for (const [name, file] of fileParts) {
    body[name] = uploaded(file);
    fingerprint[name] = { name: file.name, type: file.type, sha256: file.sha256 };
  }
  return { ok: true, body, stored, issues, fingerprint };
}

/** What `call` resolves to, as a promise even when it throws at once or returns no promise (a store's method is user code). */
const settled = (call: () => unknown): Promise<unknown> => Promise.resolve().then(call);

/** Deletes what `key` holds, ignoring how the store fails (the upload's own failure is what is answered). */
const removeQuietly = (store: FileStore, key: string): Promise<void> =>
  settled(() => store.delete(key)).then(
    () => undefined,
    () => undefined,
  );

/** Deletes stored files (a failed request's, or content a write replaced), logging what the store refused. */
export async function deleteFiles(store: FileStore, keys: readonly string[], request: FastifyRequest): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      settled(() => store.delete(key)).catch((error: unknown) =>
        logSafely(request.log, 'error', { err: error, source: 'options.files', key }, 'could not delete a stored file'),
      ),
    ),
  );
}
