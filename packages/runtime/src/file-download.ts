/**
 * `GET /vN/<collection>/{id}/<field>`: a resource's file, streamed from the file store. The resource is read
 * through the collection's get handler (404 when it has no such resource, or no file in the field); the answer
 * carries the file's type, `Content-Length`, a strong `ETag` from its SHA-256, `Content-Disposition: attachment`
 * with its name, and `Accept-Ranges: bytes`. `If-None-Match` answers 304; a single `Range` answers 206 with
 * `Content-Range` (honoured only when `If-Range`, if sent, names the current ETag), and a range past the end 416
 * with a `Content-Range` that gives the file's size. HEAD answers the same headers without the body. `Accept` is not read:
 * a file is answered in its own type (a problem, in the format the request negotiated).
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reject } from './answer.js';
import { dispositionOf, rangeOf } from './byte-range.js';
import { evaluate, preconditionsOf } from './etag.js';
import type { FileStore } from './file-store.js';
import { isStoredFile } from './file-values.js';
import { idOf, noSuchId, contextOf } from './handle.js';
import { createLoader } from './load.js';
import { internal, problem, send } from './problems.js';
import type { FileFieldSpec, RouteSpec, VersionSpec } from './spec.js';
import type { Handle, Mount } from './state.js';

/** The ETag of a file's content: its SHA-256 (strong: equal tags, equal bytes). */
export const fileEtag = (sha256: string): string => `"${sha256}"`;

/** The handler of the download of the file field `name` (this version's name) of `route`. */
export function createDownloadHandle(m: Mount, version: VersionSpec, route: RouteSpec, name: string, spec: FileFieldSpec, store: FileStore): Handle {
  const load = createLoader(m, version, route);
  if (load === null) throw new Error(`internal error: ${route.collection.key}.${name} is downloaded, but the collection has no get handler`);
  const source = `handlers.${route.collection.key}.get`;
  const what = `${route.path} resource`;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = idOf(request);
    if (id === null) return noSuchId(request, reply, route.path);
    const loaded = await load(request, reply, id, contextOf(m, request, version.name));
    if (loaded.kind === 'answered') return loaded.reply;
    if (loaded.kind === 'missing') return send(reply, loaded.problem.toProblem());
    const file = loaded.value[spec.key];
    if (file === undefined || file === null) return send(reply, problem(404, 'not_found', `This ${what} has no ${name}.`));
    if (!isStoredFile(file))
      return reject(request, reply, version.name, { ok: false, source, pointer: `#/${spec.key}`, detail: 'not a stored file (name, type, size, sha256, key)' });
    const etag = fileEtag(file.sha256);
    reply.header('etag', etag).header('accept-ranges', 'bytes');
    const p = preconditionsOf(request);
    const verdict = p === null ? 'pass' : evaluate(p, etag, true);
    if (verdict === 'failed') return send(reply, problem(412, 'precondition_failed', 'The file changed: its ETag no longer matches If-Match.'));
    if (verdict === 'not-modified') return reply.code(304).send();
    // If-Range with another validator: the client's partial copy is stale, so the whole file is sent.
    const ifRange = request.headers['if-range'];
    const asked = ifRange === undefined || ifRange === etag ? rangeOf(request.headers.range, file.size) : ({ kind: 'whole' } as const);
    if (asked.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${file.size}`);
      return send(reply, problem(416, 'range_not_satisfiable', `The file has ${file.size} bytes; the range asked for holds none of them.`));
    }
    const range = asked.kind === 'part' ? asked.range : null;
    // Read before any header of the file is set: a store that fails answers a plain 500.
    let content: Awaited<ReturnType<FileStore['get']>> = null;
    if (request.method !== 'HEAD') {
      try {
        content = await store.get(file.key, range ?? undefined);
      } catch (error) {
        return internal(request, reply, { err: error, source: 'options.files', key: file.key }, 'the file store failed to read a file');
      }
      if (content === null || content.size !== file.size) {
        content?.body.destroy();
        return internal(
          request,
          reply,
          { source: 'options.files', key: file.key, size: file.size, stored: content?.size ?? null },
          content === null ? 'a resource refers to a file the file store does not hold' : 'the stored file is not the size recorded for it',
        );
      }
    }
    reply
      .type(file.type)
      .header('content-disposition', dispositionOf(file.name))
      .header('x-content-type-options', 'nosniff')
      .header('content-length', range ? range.end - range.start + 1 : file.size);
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    // HEAD: no body, but the GET's Content-Length (Fastify's HEAD handling keeps it for a stream, not for nothing).
    if (content === null) return reply.send(Readable.from([]));
    return reply.send(content.body);
  };
}
