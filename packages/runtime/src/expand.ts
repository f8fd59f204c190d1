/**
 * Expansion (`?expand=customer`): in an answer, each named ref holds the referenced resource as the caller's
 * version shows it, read through the referenced collection's handlers with the caller's context, one level deep.
 * The caller must be allowed to read that collection in that version (as a get of it would be: 401 without a
 * credential, 403 without its read scope), checked before the operation's handler runs. A page loads each
 * referenced collection once (`getMany`, or `get` once per distinct id without it); a ref whose resource does not
 * exist (any more) holds null.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Broken, Checked } from './answer.js';
import { createPresenter } from './answer.js';
import { readCredential } from './auth.js';
import { isRecord } from './guards.js';
import { invoke, type Outcome } from './invoke.js';
import { isProblem, problem, send, type HttpProblem } from './problems.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import { contextOf, principalOf, type Mount } from './state.js';

/** A ref to expand: its name in the version, and the referenced collection's key. */
export interface Expansion {
  readonly name: string;
  readonly collection: string;
}

/** Why an expansion cannot be answered: a problem of the referenced handler, a broken value, a failed call. */
export type ExpandFailure =
  | { readonly kind: 'problem'; readonly problem: HttpProblem }
  | { readonly kind: 'broken'; readonly broken: Broken }
  | { readonly kind: 'failed'; readonly source: string; readonly outcome: Exclude<Outcome<unknown>, { kind: 'value' }> };

/** Expands the refs of answers of one version. */
export interface Expander {
  /** The expansions of `route`'s version named (this version's names), or none. */
  named(route: RouteSpec, names: readonly string[] | undefined): Expansion[];
  /** Answers 401 or 403 when the caller may not read a referenced collection; undefined when it may. */
  admit(request: FastifyRequest, reply: FastifyReply, expansions: readonly Expansion[]): FastifyReply | undefined;
  /** Replaces the refs of `items` (shown objects of this version) with their resources; a failure, or undefined. */
  fill(request: FastifyRequest, items: readonly Record<string, unknown>[], expansions: readonly Expansion[]): Promise<ExpandFailure | undefined>;
}

/** The expander of `version`: presenters of each referenced collection are built on first use and kept. */
export function createExpander(m: Mount, version: VersionSpec): Expander {
  const presenters = new Map<string, (value: unknown, at: string) => Checked>();
  const routes = m.spec.versions.find((v) => v.name === version.name)!.routes;
  const routeOf = (collection: string): RouteSpec => routes.find((r) => r.collection.key === collection)!;
  const presenterOf = (collection: string) => {
    let present = presenters.get(collection);
    if (!present) presenters.set(collection, (present = createPresenter(m, version, routeOf(collection), `handlers.${collection}.get`)));
    return present;
  };

  /** The resources of `ids` in `collection` as the caller reads them, by id (newest shape), or why not. */
  const load = async (request: FastifyRequest, collection: string, ids: readonly string[]): Promise<Map<string, unknown> | ExpandFailure> => {
    const handlers = m.handlers[collection]!;
    const ctx = contextOf(m, request, version.name);
    const id = m.newest.get(collection)!.id;
    const found = new Map<string, unknown>();
    const keep = (resource: unknown) => {
      if (isRecord(resource) && typeof resource[id] === 'string') found.set(resource[id], resource);
    };
    const many = handlers['getMany'];
    if (many !== undefined) {
      const source = `handlers.${collection}.getMany`;
      const outcome = await invoke(request, source, m.requestTimeout, () => many(ids, ctx));
      if (outcome.kind !== 'value') return { kind: 'failed', source, outcome };
      if (isProblem(outcome.value)) return { kind: 'problem', problem: outcome.value };
      if (!Array.isArray(outcome.value)) return { kind: 'broken', broken: { ok: false, source, pointer: '#', detail: 'not an array of resources' } };
      for (const resource of outcome.value) keep(resource);
      return found;
    }
    const source = `handlers.${collection}.get`;
    const get = handlers['get']!;
    const outcomes = await Promise.all(ids.map((one) => invoke(request, source, m.requestTimeout, () => get(one, ctx))));
    for (const outcome of outcomes) {
      if (outcome.kind !== 'value') return { kind: 'failed', source, outcome };
      const value = outcome.value;
      // A resource that no longer exists: the ref holds null.
      if (isProblem(value)) {
        if (value.status === 404) continue;
        return { kind: 'problem', problem: value };
      }
      keep(value);
    }
    return found;
  };

  return {
    named(route, names) {
      if (names === undefined) return [];
      return names.map((name) => ({ name, collection: route.query.expand![name]![1] }));
    },

    admit(request, reply, expansions) {
      for (const { name, collection } of expansions) {
        const target = routeOf(collection);
        if (target.public.includes('get')) continue;
        const principal = principalOf(request);
        const needs = target.collection.scopes.read;
        if (principal === null) {
          reply.header('www-authenticate', m.challenge(null));
          return send(reply, problem(401, 'unauthenticated', `Expanding ${name} reads ${target.path}, which needs a credential.`));
        }
        const lacking = needs.filter((s) => !principal.scopes.includes(s));
        if (lacking.length > 0) {
          const scheme = readCredential(request, m.spec, m.apiKeyHeader)?.scheme ?? null;
          reply.header('www-authenticate', m.challenge(scheme, `error="insufficient_scope", scope="${lacking.join(' ')}"`));
          return send(
            reply,
            problem(403, 'insufficient_scope', `Expanding ${name} reads ${target.path}, which needs the scope ${lacking.join(' and ')}.`, { scopes: lacking }),
          );
        }
      }
      return undefined;
    },

    async fill(request, items, expansions) {
      const byCollection = new Map<string, Set<string>>();
      for (const { name, collection } of expansions) {
        const ids = byCollection.get(collection) ?? new Set<string>();
        byCollection.set(collection, ids);
        for (const item of items) if (typeof item[name] === 'string') ids.add(item[name]);
      }
      const shown = new Map<string, Map<string, unknown>>();
      for (const [collection, ids] of byCollection) {
        if (ids.size === 0) continue;
        const loaded = await load(request, collection, [...ids]);
        if (!(loaded instanceof Map)) return loaded;
        const present = presenterOf(collection);
        const out = new Map<string, unknown>();
        for (const [id, resource] of loaded) {
          if (!ids.has(id)) continue;
          const checked = present(resource, '#');
          if (!checked.ok) return { kind: 'broken', broken: checked };
          out.set(id, checked.value);
        }
        shown.set(collection, out);
      }
      for (const { name, collection } of expansions)
        for (const item of items) {
          const ref = item[name];
          if (typeof ref === 'string') item[name] = shown.get(collection)?.get(ref) ?? null;
        }
      return undefined;
    },
  };
}
