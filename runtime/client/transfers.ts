/**
 * The work of `files.ts`, loaded on the first upload or download: a body with files encoded as
 * `multipart/form-data` (streamed, never read whole) and sent, a download's headers read.
 * @module
 */
import type { TimeoutError } from "./failures.js";
import type { RequestOptions } from "./options.js";
import type { WithResponse } from "./promises.js";
import type { Transport } from "./transport.js";

/** Bytes that are not a `Blob`, with the name and type a part gives them. */
export interface UploadStream {
  stream: ReadableStream<Uint8Array>;
  /** The file name sent (default `file`). */
  name?: string;
  /** The media type sent (default: none said; the server tells it by the leading bytes). */
  type?: string;
}

/**
 * What a file field takes: a `Blob` or `File` (its type and name are sent), a `ReadableStream` of bytes, or
 * one with a name and type. A body with a stream is sent once: it is never retried.
 */
export type Upload = Blob | ReadableStream<Uint8Array> | UploadStream;

/** A downloaded file: its bytes as a stream (read them, or cancel it), and what the headers say of it. */
export interface Download {
  body: ReadableStream<Uint8Array>;
  /** The file name (`Content-Disposition`), or null. */
  name: string | null;
  /** The media type. */
  type: string;
  /** The bytes this answer carries (`Content-Length`): the whole file, or the range. */
  length: number;
  /** The strong ETag of the file's content. */
  etag: string | null;
  /** The range this answer carries and the file's size (a 206), or null for the whole file. */
  range: { start: number; end: number; size: number } | null;
  response: Response;
}

/** Options of `download`: the request's, and a range of bytes (`end` included; without it, to the end). */
export interface DownloadOptions extends RequestOptions {
  range?: { start: number; end?: number };
}

/** A write method of the namespace: its promise, with the `Response` on request. */
export type Send = (...args: unknown[]) => {
  withResponse(): Promise<WithResponse<unknown>>;
};

const isBlob = (v: unknown): v is Blob =>
  typeof Blob !== "undefined" && v instanceof Blob;
const isStream = (v: unknown): v is ReadableStream<Uint8Array> =>
  typeof ReadableStream !== "undefined" && v instanceof ReadableStream;
const isUploadStream = (v: unknown): v is UploadStream =>
  typeof v === "object" && v !== null && isStream((v as UploadStream).stream);

/** A quoted parameter of a part's header: CR, LF and `"` %-encoded (as browsers encode form names). */
const quoted = (s: string): string =>
  `"${s.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22")}"`;

/** Whether a value goes as a file part. */
const isFile = (v: unknown): boolean =>
  isBlob(v) || isStream(v) || isUploadStream(v);

/**
 * `body` as `multipart/form-data`: each file a part with its name and type, a string or number or boolean a
 * text part, anything else (an object, an array, null) a JSON part. A `Blob` when every file is one (sent
 * again on a retry), else a stream. Undefined when the body holds no file: it goes as JSON.
 */
export function encodeUpload(
  body: object,
): { body: Blob | ReadableStream<Uint8Array>; type: string } | undefined {
  const entries = Object.entries(body).filter(([, v]) => v !== undefined);
  if (!entries.some(([, v]) => isFile(v))) return undefined;
  const boundary = `restgen-${Array.from(
    crypto.getRandomValues(new Uint8Array(12)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("")}`;
  const parts: (string | Blob | ReadableStream<Uint8Array>)[] = [];
  for (const [name, value] of entries) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}`;
    if (isFile(value)) {
      const upload = value as Upload;
      const content = isUploadStream(upload) ? upload.stream : upload;
      const file = isBlob(upload) ? upload : undefined;
      const fileName =
        (isUploadStream(upload)
          ? upload.name
          : (file as File | undefined)?.name) ?? "file";
      const type = isUploadStream(upload) ? upload.type : file?.type;
      // RFC 7578: a file of no known type is application/octet-stream (the server reads its leading bytes).
      parts.push(
        `${head}; filename=${quoted(fileName)}\r\nContent-Type: ${type || "application/octet-stream"}\r\n\r\n`,
        content,
        "\r\n",
      );
    } else if (typeof value === "object")
      parts.push(
        `${head}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(value)}\r\n`,
      );
    else parts.push(`${head}\r\n\r\n${String(value)}\r\n`);
  }
  parts.push(`--${boundary}--\r\n`);
  const type = `multipart/form-data; boundary=${boundary}`;
  if (!parts.some(isStream))
    return { body: new Blob(parts as (string | Blob)[]), type };
  const encoder = new TextEncoder();
  // Each part in turn: text encoded, blobs and streams read chunk by chunk as the request asks for more.
  const chunks = (async function* () {
    for (const part of parts) {
      if (typeof part === "string") yield encoder.encode(part);
      else {
        const reader = (isStream(part) ? part : part.stream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          yield value;
        }
      }
    }
  })();
  return {
    body: new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    }),
    type,
  };
}

/** `filename*=UTF-8''...` (RFC 8187), else `filename="..."`, of a `Content-Disposition`. */
function fileNameOf(disposition: string | null): string | null {
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition ?? "");
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // Not valid %-encoding: the plain name below, if any.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(disposition ?? "")?.[1] ?? null;
}

/**
 * Sends a write of a collection with file fields: a body (`args[at]`) that holds a file encoded as multipart,
 * its type in the headers (a stream is read once, so such a request is never retried); any other as it is.
 */
export function write(
  send: Send,
  at: number,
  args: readonly unknown[],
): Promise<WithResponse<unknown>> {
  const body = args[at];
  const encoded =
    typeof body === "object" && body !== null ? encodeUpload(body) : undefined;
  if (!encoded) return send(...args).withResponse();
  const opts = (args[at + 1] ?? {}) as RequestOptions;
  const again = [...args];
  again[at] = encoded.body;
  again[at + 1] = {
    ...opts,
    headers: { ...opts.headers, "content-type": encoded.type },
    ...(isStream(encoded.body) && { maxRetries: 0 }),
  };
  return send(...again).withResponse();
}

/**
 * Downloads the file of `field` of the resource `id` of the collection at `path`: its bytes as a stream, and what
 * its headers say. `Timeout` is the client's `TimeoutError`, handed over so that this module, loaded on demand,
 * shares no code with the rest of the client (a bundler would split the shared code into a chunk of its own).
 */
export async function download(
  t: Transport,
  Timeout: typeof TimeoutError,
  version: string,
  path: string,
  id: string,
  field: string,
  opts: DownloadOptions = {},
): Promise<Download> {
  // As every method of a resource: an id that names no resource is sent nowhere.
  if (/^\.{0,2}$/.test(id))
    throw new TypeError(`not an id: ${JSON.stringify(id)}`);
  const { range, timeout = 6e4, signal, ...rest } = opts;
  const headers = range
    ? { ...rest.headers, range: `bytes=${range.start}-${range.end ?? ""}` }
    : rest.headers;
  // The timeout covers the answer's headers (per attempt); the body is read at the caller's pace, until its
  // `signal` aborts.
  const attempt = new AbortController();
  const abort = () => attempt.abort(signal?.reason);
  if (signal?.aborted) abort();
  signal?.addEventListener("abort", abort);
  const what = `GET ${path}/${id}/${field}`;
  const timer = setTimeout(
    () =>
      attempt.abort(
        new Timeout(`Timed out after ${timeout} ms (${what})`, undefined),
      ),
    timeout,
  );
  let response: Response;
  try {
    ({ response } = await t(
      "GET",
      version,
      `${path}/${encodeURIComponent(id)}/${field}`,
      undefined,
      {
        ...rest,
        ...(headers && { headers }),
        signal: attempt.signal,
        timeout: Infinity,
      },
      undefined,
      undefined,
      true,
    ));
  } finally {
    clearTimeout(timer);
  }
  const h = response.headers;
  const span = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(h.get("content-range") ?? "");
  return {
    body: response.body ?? new Blob([]).stream(),
    name: fileNameOf(h.get("content-disposition")),
    type: h.get("content-type") ?? "application/octet-stream",
    length: Number(h.get("content-length") ?? 0),
    etag: h.get("etag"),
    range:
      response.status === 206 && span
        ? { start: +span[1]!, end: +span[2]!, size: +span[3]! }
        : null,
    response,
  };
}
