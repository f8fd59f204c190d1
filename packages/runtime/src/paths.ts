/**
 * Registering routes under each versioning scheme: a path per version (`/v1/orders`), or one path where
 * the version header (or the principal's pin, or the default: `version-select.ts`) picks the entry, and
 * every answer echoes the version in that header. Either way other methods answer
 * 405 with `Allow`, and OPTIONS answers with `Allow`. A transition is a custom method on the item path,
 * `/orders/{id}:cancel` (AIP-136): an unknown custom method answers 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ALL_METHODS, allowOf } from './operations.js';
import { problem, send } from './problems.js';
import { resolvedOf, stateOf, type Entry, type Gate, type Handle } from './state.js';
import { answered, type HeaderVersions } from './version-select.js';

/**
 * The router URL of a transition of the item path `/orders/{id}`. find-my-way reads `:id::cancel` as one
 * parameter named `id::cancel`; a parameter with a pattern ends where the pattern does, and `::` after it
 * is a literal colon. Ids never contain a colon, so `/orders/a:b:cancel` matches nothing.
 */
export const transitionUrl = (collectionUrl: string, name: string): string => `${collectionUrl}/:id(^[^/:]+)::${name}`;

/** A router URL as the API documents it: `/orders/:id` is `/orders/{id}`, a transition's `/orders/{id}:cancel`. */
export const displayUrl = (url: string): string => url.replace('/:id(^[^/:]+)::', '/{id}:').replace('/:id', '/{id}');

/** A route of one version to register; `url` is relative to the version (`/orders/:id`). */
export interface Placed {
  readonly version: string;
  readonly url: string;
  readonly method: string;
  readonly entry: Entry;
}

/**
 * The served paths (relative to the prefix, as registered: `/v1/orders/:id`) and the `Allow` of each, so
 * that a method Fastify has no route for (TRACE, PROPFIND, LINK, ...) on a served path answers 405, not 404.
 */
export class PathIndex {
  readonly #allow = new Map<string, (request: FastifyRequest) => string>();

  /** Records a registered path. */
  add(url: string, allowFor: (request: FastifyRequest) => string): void {
    this.#allow.set(url, allowFor);
  }

  /**
   * The `Allow` of the served path `path` matches (`/v1/orders/abc` matches `/v1/orders/:id`,
   * `/v1/orders/abc:cancel` the transition's path), or null.
   */
  allowOf(path: string, request: FastifyRequest): string | null {
    const exact = this.#allow.get(path);
    if (exact) return exact(request);
    const cut = path.lastIndexOf('/');
    if (cut <= 0 || cut === path.length - 1) return null;
    const parent = path.slice(0, cut);
    const colon = path.indexOf(':', cut);
    const item = this.#allow.get(colon > cut + 1 ? transitionUrl(parent, path.slice(colon + 1)) : `${parent}/:id`);
    return item ? item(request) : null;
  }
}

/** What one method of a path runs: its gate (null: nothing to check) and its handle. */
interface MethodRoute {
  readonly gate: Gate | null;
  readonly handle: Handle;
}

/** A gate with nothing to check, for the methods of a path that have none when another has one. */
const PASS: Promise<undefined> = Promise.resolve(undefined);

/**
 * Registers the routes of one path: declared methods, 405 with `Allow` for the rest, OPTIONS with `Allow`.
 * One Fastify route serves every method of the path (Fastify adds HEAD beside GET, as for any GET route)
 * and hands each request to its method's gate and handle: a server of many collections and versions
 * registers a sixth of the routes one per method would, which is most of what its start-up costs.
 */
function mountPath(
  scope: FastifyInstance,
  index: PathIndex,
  url: string,
  byMethod: ReadonlyMap<string, Entry | Selector>,
  bodyLimit: number,
  allowFor: (request: FastifyRequest) => string,
): void {
  index.add(url, allowFor);
  const routes = new Map<string, MethodRoute>();
  for (const [method, target] of byMethod)
    routes.set(
      method,
      typeof target === 'function'
        ? {
            gate: (request, reply) => entryGate(request, reply, target),
            handle: (request, reply) => stateOf(request).entry!.handle(request, reply),
          }
        : target,
    );
  const rest: MethodRoute = {
    gate: null,
    handle: async (request, reply) => {
      // `/orders/{id}:bogus` lands on the item path: an id has no colon, so it names a custom method.
      const id = (request.params as { id?: unknown }).id;
      if (typeof id === 'string' && id.includes(':'))
        return send(reply, problem(404, 'not_found', `There is no custom method :${id.slice(id.indexOf(':') + 1)} at ${displayUrl(url)}.`));
      const allow = allowFor(request);
      reply.header('allow', allow);
      if (request.method === 'OPTIONS') return reply.code(204).send();
      return send(reply, problem(405, 'method_not_allowed', `${request.method} is not allowed here; this path accepts ${allow}.`));
    },
  };
  // HEAD is GET's when the path declares GET (Fastify answers it without the body), else one of the rest.
  for (const method of ALL_METHODS) if (!routes.has(method) && !(method === 'HEAD' && routes.has('GET'))) routes.set(method, rest);
  const head = routes.get('HEAD') ?? routes.get('GET')!;
  const of = (request: FastifyRequest): MethodRoute => (request.method === 'HEAD' ? head : routes.get(request.method)!);
  const gated = [...routes.values()].some((r) => r.gate !== null);
  scope.route({
    method: [...routes.keys()],
    url,
    bodyLimit,
    ...(gated
      ? {
          onRequest: (request: FastifyRequest, reply: FastifyReply) => of(request).gate?.(request, reply) ?? PASS,
        }
      : {}),
    handler: (request, reply) => of(request).handle(request, reply),
  });
}

/** Header versioning: chooses a request's entry (its version's, or one that answers 400, 404, 405). */
type Selector = (request: FastifyRequest, reply: FastifyReply) => Entry | Promise<Entry>;

/** Header versioning: the entry was chosen by `select`, which may already have answered (400, 404, 405). */
async function entryGate(request: FastifyRequest, reply: FastifyReply, select: Selector): Promise<FastifyReply | undefined> {
  const chosen = select(request, reply);
  const entry = chosen instanceof Promise ? await chosen : chosen;
  stateOf(request).entry = entry;
  return entry.gate ? entry.gate(request, reply) : undefined;
}

/** Path versioning: each version's routes under `/<version>`. */
export function mountByPath(scope: FastifyInstance, index: PathIndex, placed: readonly Placed[], bodyLimit: number): void {
  const urls = new Map<string, Map<string, Entry>>();
  for (const p of placed) {
    const url = `/${p.version}${p.url}`;
    const byMethod = urls.get(url) ?? new Map<string, Entry>();
    urls.set(url, byMethod);
    byMethod.set(p.method, p.entry);
  }
  for (const [url, byMethod] of urls) {
    const allow = allowOf(new Set(byMethod.keys()));
    mountPath(scope, index, url, byMethod, bodyLimit, () => allow);
  }
}

/** A `Vary` value that lists `name` besides the names `current` lists (RFC 9110 section 12.5.5). */
export function withVary(current: string | number | string[] | undefined, name: string): string {
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  if (names.includes('*')) return '*';
  const lower = name.toLowerCase();
  return names.some((n) => n.toLowerCase() === lower) ? names.join(', ') : [...names, name].join(', ');
}

/** Header versioning: one path for every version; the `header` names the version. */
export function mountByHeader(scope: FastifyInstance, index: PathIndex, placed: readonly Placed[], versions: HeaderVersions, bodyLimit: number): void {
  const { header, names } = versions;
  // Caches must key answers on the version header, besides what the application varies on (CORS: Origin);
  // every answer after the version was chosen, errors included, names it.
  scope.addHook('onSend', async (request, reply, payload) => {
    reply.header('vary', withVary(reply.getHeader('vary'), header));
    const resolved = resolvedOf(request);
    if (resolved !== null) reply.header(header, resolved.name);
    return payload;
  });
  // url -> method -> version -> entry.
  const entries = new Map<string, Map<string, Map<string, Entry>>>();
  for (const p of placed) {
    const byMethod = entries.get(p.url) ?? new Map<string, Map<string, Entry>>();
    entries.set(p.url, byMethod);
    const byVersion = byMethod.get(p.method) ?? new Map<string, Entry>();
    byMethod.set(p.method, byVersion);
    byVersion.set(p.version, p.entry);
  }
  for (const [url, byMethod] of entries) {
    const allowIn = (v: string) => allowOf(new Set([...byMethod].filter(([, e]) => e.has(v)).map(([method]) => method)));
    const entryOf = (method: string, v: string): Entry => {
      const entry = byMethod.get(method)!.get(v);
      if (entry) return entry;
      const allow = [...byMethod.values()].some((e) => e.has(v)) ? allowIn(v) : null;
      if (allow === null) return answered(problem(404, 'not_found', `${displayUrl(url)} does not exist in ${v}.`));
      return answered(problem(405, 'method_not_allowed', `${method} is not allowed here in ${v}; this path accepts ${allow}.`), { allow });
    };
    const select =
      (method: string): Selector =>
      (request, reply) => {
        const chosen = versions.resolve(request, reply);
        if (chosen instanceof Promise) return chosen.then((c) => (typeof c === 'string' ? entryOf(method, c) : c));
        return typeof chosen === 'string' ? entryOf(method, chosen) : chosen;
      };
    const targets = new Map([...byMethod.keys()].map((method) => [method, select(method)] as const));
    mountPath(scope, index, url, targets, bodyLimit, (request) => allowIn(versions.peek(request) ?? names[names.length - 1]!));
  }
}
