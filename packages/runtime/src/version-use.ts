/**
 * Usage per version: `options.onVersionUse` called once per request that resolved a version and got past
 * authentication, with the version, what asked for it (header, pin, default or path), the operation and the
 * principal. It is observation only: what it throws or rejects with, whatever that is, is logged and changes nothing.
 */
import type { FastifyRequest } from 'fastify';
import { callListener, logSafely } from './contain.js';
import type { VersionSpec } from './spec.js';
import { deprecatedAt } from './version-lifecycle.js';
import { resolvedOf, type Mount } from './state.js';
import type { Principal, VersionUse } from './types.js';

const SOURCE = 'options.onVersionUse';

/** Reports a request of `operation` on `collection` in `version` by `principal`; null when nobody listens. */
export type UseReporter = (request: FastifyRequest, principal: Principal | null) => void;

/** The reporter of one route of `version`, or null without `options.onVersionUse`. */
export function createUseReporter(m: Mount, version: VersionSpec, collection: string, operation: string): UseReporter | null {
  const listener = m.onVersionUse;
  if (listener === null) return null;
  const since = deprecatedAt(version.deprecation);
  const failed = (request: FastifyRequest) => (err: unknown) => logSafely(request.log, 'warn', { err, source: SOURCE }, 'onVersionUse failed');
  return (request, principal) => {
    // Path versioning resolves nothing: the path names the version.
    const resolved = resolvedOf(request);
    const use: VersionUse = {
      version: version.name,
      requested: resolved === null ? version.name : resolved.requested,
      source: resolved === null ? 'path' : resolved.source,
      collection,
      operation,
      principal: principal === null ? null : principal.id,
      deprecated: since !== null && m.now() >= since,
    };
    callListener(() => listener(use), failed(request));
  };
}
