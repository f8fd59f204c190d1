/**
 * What writes of a collection with file fields do with stored content once their handler's outcome is known
 * (however long it takes, even past the request's timeout): a create, replace or update that fails deletes the
 * files its request uploaded; one that succeeds deletes the content the resource referred to before and no
 * longer does (a file replaced, or removed with `null`); a delete deletes all of it. Content is only ever
 * deleted for a key the resource held and no longer holds, so a concurrent write can at worst leave a file
 * behind, never remove one a resource still refers to.
 */
import type { FastifyRequest } from 'fastify';
import type { FileStore } from './file-store.js';
import { deleteFiles } from './file-upload.js';
import { fileKeysOf, type StoredFile } from './file-values.js';
import { invoke } from './invoke.js';
import { isProblem } from './problems.js';
import type { FileFieldSpec, RouteSpec } from './spec.js';
import type { Mount } from './state.js';
import type { HandlerContext } from './types.js';

/** The file bookkeeping of one route's writes. */
export interface FileWrites {
  /**
   * The keys the resource `id` refers to now, read through the get handler with `ctx` (none when it cannot be
   * read), and the resource read (absent when the handler answered a problem or failed).
   */
  before(
    request: FastifyRequest,
    id: string,
    ctx: HandlerContext,
  ): Promise<{ readonly keys: readonly string[]; readonly resource?: { readonly value: unknown } }>;
  /**
   * Settles the files of a write when `result` (the handler's return) settles: on a problem or an error the
   * `uploaded` files are deleted; on success the `old` keys the answer no longer refers to.
   */
  settle(request: FastifyRequest, result: unknown, uploaded: readonly StoredFile[], old: readonly string[]): void;
}

/** The file bookkeeping of `route`'s writes, or null when it has no file field (or the API no store). */
export function createFileWrites(m: Mount, route: RouteSpec, store: FileStore | null): FileWrites | null {
  if (store === null || route.files === undefined) return null;
  const fields = filesOfCollection(m, route.collection.key);
  const get = m.handlers[route.collection.key]?.['get'];
  const source = `handlers.${route.collection.key}.get`;
  return {
    async before(request, id, ctx) {
      if (get === undefined) return { keys: [] };
      const outcome = await invoke(request, source, m.requestTimeout, () => get(id, ctx));
      if (outcome.kind !== 'value' || isProblem(outcome.value)) return { keys: [] };
      return { keys: fileKeysOf(fields, outcome.value) ?? [], resource: { value: outcome.value } };
    },
    settle(request, result, uploaded, old) {
      const failed = () =>
        deleteFiles(
          store,
          uploaded.map((f) => f.key),
          request,
        );
      void Promise.resolve(result).then((value) => {
        if (isProblem(value)) return failed();
        // A resource that cannot be read (its properties throw) may hold what was uploaded: nothing is deleted.
        const kept = fileKeysOf(fields, value);
        if (kept === null) return undefined;
        return deleteFiles(
          store,
          old.filter((key) => !kept.includes(key)),
          request,
        );
      }, failed);
    },
  };
}

/** The file fields of a collection in every version, once each by newest name: a version may lack one the resource still holds. */
function filesOfCollection(m: Mount, key: string): FileFieldSpec[] {
  const byKey = new Map<string, FileFieldSpec>();
  for (const version of m.spec.versions)
    for (const route of version.routes) if (route.collection.key === key) for (const f of Object.values(route.files ?? {})) byKey.set(f.key, f);
  return [...byKey.values()];
}
