/**
 * Header versioning: which version answers a request. In this order: the versioning header, when sent (a
 * version's name; when every version is named by a date, also a date, which selects the newest released
 * version on or before it); else `options.pinnedVersion(principal, request)`, asked after the credential was
 * checked (once: the gate then does not check it again); else the API's `versioning.default`; else 400
 * listing the versions. The version chosen is kept in the request's state, and echoed on the answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeThrown } from './contain.js';
import { readCredential } from './auth.js';
import { authenticateRequest } from './gate.js';
import { answerFailure, invoke } from './invoke.js';
import { internal, isProblem, problem, send, type Problem } from './problems.js';
import type { VersionSpec } from './spec.js';
import { stateOf, type Entry, type Mount } from './state.js';
import type { Principal, ServerOptions, VersionSource } from './types.js';

const PINNED = 'options.pinnedVersion';
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** How much of a refused header value a 400 quotes back. */
const QUOTED = 64;

/** Whether `text` is a real `YYYY-MM-DD` date. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/**
 * The version a value names: a version's name exactly; when every version is named by a date, a date names
 * the newest released version on or before it (a date after the newest released version names that one;
 * an unreleased version only by its exact name). Null when it names none.
 */
export function createVersionNames(versions: readonly VersionSpec[]): (value: string) => string | null {
  const names = new Set(versions.map((v) => v.name));
  const dated = versions.length > 0 && versions.every((v) => isDate(v.name));
  const released = versions
    .filter((v) => v.released)
    .map((v) => v.name)
    .sort();
  return (value) => {
    if (names.has(value)) return value;
    if (!dated || !isDate(value)) return null;
    let found: string | null = null;
    for (const name of released) {
      if (name > value) break;
      found = name;
    }
    return found;
  };
}

/** The version of a request, or the entry that answers it instead (400, or a refused credential). */
export type VersionChoice = string | Entry;

/** Chooses the version of a request (see the module comment); sync unless `pinnedVersion` has to be asked. */
export type VersionResolver = (request: FastifyRequest, reply: FastifyReply) => VersionChoice | Promise<VersionChoice>;

/** An entry whose gate answers `body` at once. */
export const answered = (body: Problem, headers: Readonly<Record<string, string>> = {}): Entry => ({
  gate: async (_request, reply) => send(reply.headers(headers), body),
  handle: async () => undefined,
});

/** The entry of a request answered while its version was chosen. */
const ANSWERED: Entry = {
  gate: async (_request, reply) => reply,
  handle: async () => undefined,
};

/** How header versioning chooses versions: per request, and (for `Allow`) a guess that asks nobody. */
export interface HeaderVersions {
  readonly header: string;
  /** The version of a request, or the entry that answers it instead. */
  readonly resolve: VersionResolver;
  /** The version the header names, else the default, else null: no credential checked, no pin asked. */
  readonly peek: (request: FastifyRequest) => string | null;
  /** Every version, oldest first. */
  readonly names: readonly string[];
}

/** How an API versioned by `header` chooses versions, with its default and `options.pinnedVersion`. */
export function createHeaderVersions(m: Mount, header: string, fallback: string | null, pin: ServerOptions['pinnedVersion'] | undefined): HeaderVersions {
  const lower = header.toLowerCase();
  const versions = m.spec.versions;
  const names = versions.map((v) => v.name);
  const named = createVersionNames(versions);
  const dated = names.every(isDate);
  const first = versions.find((v) => v.released)?.name;
  const listed = `one of: ${names.join(', ')}${dated && first !== undefined ? `, or a date from ${first} on (the newest released version on or before it)` : ''}`;
  const missing = answered(
    problem(400, 'unknown_version', `Send the ${header} header with ${listed}.`, {
      versions: names,
    }),
  );
  const unknown = (value: string) => {
    const shown = value.length > QUOTED ? `${value.slice(0, QUOTED)}…` : value;
    return answered(problem(400, 'unknown_version', `${header} ${JSON.stringify(shown)} names no version of this API; send ${listed}.`, { versions: names }));
  };
  const chose = (request: FastifyRequest, name: string, requested: string | null, source: VersionSource): string => {
    stateOf(request).version = { name, requested, source };
    return name;
  };
  const otherwise = (request: FastifyRequest): VersionChoice => (fallback === null ? missing : chose(request, fallback, null, 'default'));

  /** Checks the credential (once), then asks `pinnedVersion` for the principal's version. */
  const pinned = async (ask: NonNullable<ServerOptions['pinnedVersion']>, request: FastifyRequest, reply: FastifyReply): Promise<VersionChoice> => {
    let principal: Principal | null = null;
    const credential = readCredential(request, m.spec, m.apiKeyHeader);
    if (credential !== null) {
      principal = await authenticateRequest(m, request, reply, credential);
      if (principal === null) return ANSWERED;
      const state = stateOf(request);
      state.principal = principal;
      state.authenticated = true;
    }
    const outcome = await invoke(request, PINNED, m.requestTimeout, () => ask(principal, request));
    if (outcome.kind !== 'value') {
      answerFailure(request, reply, PINNED, outcome, m.requestTimeout);
      return ANSWERED;
    }
    const value = outcome.value;
    if (isProblem(value)) {
      send(reply, value.toProblem());
      return ANSWERED;
    }
    if (value === null || value === undefined) return otherwise(request);
    const name = typeof value === 'string' ? named(value) : null;
    if (name === null) {
      // Not a string: described without trusting it (its toString may throw).
      const shown = typeof value === 'string' ? value : describeThrown(value).message;
      internal(request, reply, { source: PINNED, value: shown.slice(0, QUOTED) }, 'pinnedVersion returned a value that names no version');
      return ANSWERED;
    }
    return chose(request, name, value as string, 'pinned');
  };

  const resolve: VersionResolver = (request, reply) => {
    const value = request.headers[lower];
    if (typeof value === 'string') {
      const name = named(value);
      return name === null ? unknown(value) : chose(request, name, value, 'header');
    }
    return pin === undefined ? otherwise(request) : pinned(pin, request, reply);
  };
  const peek = (request: FastifyRequest): string | null => {
    const value = request.headers[lower];
    return typeof value === 'string' ? named(value) : fallback;
  };
  return { header, names, resolve, peek };
}
