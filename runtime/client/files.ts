/**
 * Files in the client (copied only for APIs with file fields): a create, replace or update whose body holds a
 * file (a `Blob` or `File`, or a `ReadableStream` of bytes) is sent as `multipart/form-data`, the file's bytes
 * streamed, never read whole; `download` answers a file's bytes as a stream with its metadata. The code that
 * does it (`transfers.ts`) is loaded on the first upload or download: an app that sends no file never loads it.
 * @module
 */
import { TimeoutError } from "./failures.js";
import { apiPromise } from "./promises.js";
import type { Download, DownloadOptions, Send } from "./transfers.js";
import type { Transport } from "./transport.js";

export type {
  Download,
  DownloadOptions,
  Upload,
  UploadStream,
} from "./transfers.js";

/** A file as answers show it: its metadata and the path it is downloaded from. */
export interface FileMetadata {
  /** The file name the upload gave. */
  name: string;
  /** Its media type. */
  type: string;
  /** Its size in bytes. */
  size: number;
  /** The SHA-256 of its content, lower-case hex. */
  sha256: string;
  /** Where `download` fetches it from. */
  href: string;
}

/** The `download` method of a collection whose file fields are `F`. */
export interface Downloads<F extends string> {
  /** Streams the file of `field` of the resource `id`; NotFoundError when it has none. */
  download(id: string, field: F, opts?: DownloadOptions): Promise<Download>;
}

/**
 * Adds file uploads and downloads to the collections of a version's namespace: `files` maps each collection
 * with file fields to its path. Their create, replace and update go through `transfers.ts`, which sends a body
 * holding a file as multipart (and any other as before). The generated version module types the result (its
 * collections with `download`); the cast states that.
 */
export function withFiles<R>(
  namespace: object,
  t: Transport,
  version: string,
  files: Record<string, string>,
): R {
  const load = () => import("./transfers.js");
  for (const [name, path] of Object.entries(files)) {
    const methods = (namespace as Record<string, Record<string, unknown>>)[
      name
    ]!;
    for (const op of ["create", "replace", "update"]) {
      const send = methods[op] as Send | undefined;
      // The body is the last argument but the options: `create(body, opts)`, `update(id, patch, opts)`.
      if (send)
        methods[op] = (...args: unknown[]) =>
          apiPromise(
            load().then((m) => m.write(send, op === "create" ? 0 : 1, args)),
          );
    }
    methods["download"] = (id: string, field: string, opts?: DownloadOptions) =>
      load().then((m) =>
        m.download(t, TimeoutError, version, path, id, field, opts),
      );
  }
  return namespace as R;
}
