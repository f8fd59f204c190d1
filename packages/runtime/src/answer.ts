/**
 * Checked values between the user's code and the wire: a handler's resource migrated down and shaped by
 * the response schema of the version answered, and a request migrated up by type-change hooks checked
 * against the newest version's schema. What breaks a schema is never sent on: it answers 500, and the log
 * names the handler or hook that produced it and the JSON pointer. A stored value that breaks only a
 * request-side constraint (written under an older contract) is answered, logged at warn.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { isRecord } from './guards.js';
import { compileDown, compileDownReaders, compileUp } from './migrate.js';
import { INTERNAL, send } from './problems.js';
import { createWriter, type Written } from './checked-text.js';
import { defaultsOf, noteOutdated, relaxedSchema, withDefaults, type WarnLog } from './older-data.js';
import { once } from './deferred.js';
import { createFileLinker } from './file-values.js';
import { createShaper, pointerOf, type Failed } from './shape.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import type { Mount } from './state.js';
import type { OperationName } from './types.js';

/** Why a value cannot be sent on: who produced it, where, and how it breaks the schema. */
export interface Broken {
  readonly ok: false;
  readonly source: string;
  readonly pointer: string;
  readonly detail: string;
  readonly error?: unknown;
  /** The version whose schema the value breaks, when it is not the version answered (migrated requests). */
  readonly schema?: string;
}
/** A value fit to go on, or why not. */
export type Checked = { readonly ok: true; readonly value: unknown } | Broken;

/** Logs a broken value (source, version, pointer) and answers 500 without details. */
export function reject(request: FastifyRequest, reply: FastifyReply, version: string, broken: Broken): FastifyReply {
  const { source, pointer, detail, error } = broken;
  const schema = broken.schema ?? version;
  request.log.error(
    {
      source,
      version,
      schema,
      pointer,
      detail,
      ...(error === undefined ? {} : { err: error }),
    },
    `${source} produced a value the ${schema} schema does not allow at ${pointer}: ${detail}`,
  );
  return send(reply, INTERNAL);
}

/** The first field name of a pointer (`#/reference/0` -> `reference`). */
const fieldOf = (pointer: string): string => (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

/** Who produced a response field: the down hook that converted it, else the handler. */
function blameDown(route: RouteSpec, handler: string): (pointer: string) => string {
  return (pointer) => {
    const name = fieldOf(pointer);
    const step = Object.hasOwn(route.down, name) ? route.down[name] : undefined;
    if (step === undefined || 'fallback' in step) return handler;
    if ('hook' in step) return `migrations.${step.hook}.value`;
    if (step.hooks && step.hooks.length > 0) return `migrations.${step.hooks[0]}.down`;
    return step.whenMissing === undefined ? handler : `${handler} or migrations.${step.whenMissing}.whenMissing`;
  };
}

/**
 * The resource a handler (`source`) returned, as `version` answers it: migrated down, shaped and (unless
 * turned off) checked. `at` is the pointer of the resource in the answer (`#`, `#/data/3`).
 */
export function createPresenter(m: Mount, version: VersionSpec, route: RouteSpec, source: string): (value: unknown, at: string, log?: WarnLog) => Checked {
  return withFileLinks(m, version, route, presenterWithoutFiles(m, version, route, source));
}

/**
 * A presenter that first shows each stored file of the resource as its metadata and download path (the
 * resource handlers return holds the file's store key; no answer does).
 */
function withFileLinks<R>(m: Mount, version: VersionSpec, route: RouteSpec, present: (value: unknown, at: string, log?: WarnLog) => R): typeof present {
  if (route.files === undefined) return present;
  const link = createFileLinker(route, collectionUrl(m, version, route));
  return (value, at, log) => present(link(value), at, log);
}

/** A collection's URL in a version, as clients call it (`/v2/orders`, or `/orders` with header versioning), after the prefix. */
export const collectionUrl = (m: Mount, version: VersionSpec, route: RouteSpec): string =>
  m.spec.versioning.in === 'path' ? `${m.prefix}/${version.name}/${route.path}` : `${m.prefix}/${route.path}`;

function presenterWithoutFiles(m: Mount, version: VersionSpec, route: RouteSpec, source: string): (value: unknown, at: string, log?: WarnLog) => Checked {
  const shape = createShaper(route.schemas.response, m.validateResponses);
  const strict = presenterOf(version, route, source, downOf(m, route), shape);
  const older = createOlderReader(m, version, route, source);
  if (older === null) return strict;
  return (value, at, log) => {
    const shown = strict(value, at);
    if (shown.ok) return shown;
    const kept = older(value, at, shown, log);
    return kept === null ? shown : { ok: true, value: kept };
  };
}

/**
 * Whether the handler gave the value at `pointer` of the answer (not a migration hook): a copied or renamed
 * field, a removed field's fallback, or a `whenMissing` field the resource holds.
 */
function fromHandler(route: RouteSpec, value: Record<string, unknown>, pointer: string): boolean {
  const name = fieldOf(pointer);
  const step = Object.hasOwn(route.down, name) ? route.down[name] : undefined;
  if (step === undefined || 'fallback' in step) return true;
  if ('hook' in step || (step.hooks !== undefined && step.hooks.length > 0)) return false;
  return step.whenMissing === undefined || value[step.key] !== undefined;
}

/**
 * What a version answers of a value that failed its response schema, when it was stored under an older contract:
 * only request-side constraints failed on values the handler (`source`) gave, or fields added since with a default
 * are absent (they are answered with the default). The value is shaped by the relaxed schema and noted (logged at
 * warn, reported to `onOutdatedValue`). Null when another check fails too, or a migration hook produced a failing
 * value (a hook's bug, not older data), or the schema has neither such constraints nor defaults. The reader itself
 * is null when responses are unchecked.
 */
function createOlderReader(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  source: string,
): ((value: unknown, at: string, broken: Broken, log: WarnLog | undefined) => unknown | null) | null {
  if (!m.validateResponses) return null;
  const strict = route.schemas.response;
  // Built on the first value that fails the strict check: most routes never answer older data, and the
  // relaxed schema is a second copy of the response schema.
  const tolerance = once(() => {
    const relaxed = relaxedSchema(strict);
    const defaults = defaultsOf(route.schemas.create);
    if (relaxed === null && defaults.length === 0) return null;
    return { shape: createShaper(relaxed ?? strict, true), toVersion: downOf(m, route), defaults };
  });
  return (value, at, broken, log) => {
    // A hook that threw, or a value that is no resource: nothing older data explains.
    if (broken.error !== undefined || broken.pointer === at) return null;
    if (!isRecord(value) || Array.isArray(value)) return null;
    const tolerant = tolerance();
    // A schema without request-side constraints or defaults: every value that fails it has another type.
    if (tolerant === null) return null;
    const { shape, toVersion, defaults } = tolerant;
    let migrated: unknown;
    try {
      migrated = toVersion === null ? value : toVersion(value);
    } catch {
      // The strict answer already reported why it failed (a hook throws on this value): it stands.
      return null;
    }
    const completed = withDefaults(migrated, defaults);
    const shaped = shape(completed.value);
    if (!shaped.ok) return null;
    const issues = strict.safeParse(completed.value).error?.issues ?? [];
    if (issues.some((i) => !fromHandler(route, value, pointerOf(i.path)))) return null;
    // A field added since is absent: a record stored before it existed (the strict check names the first one).
    const absent = completed.filled.find((key) => broken.pointer === at + pointerOf([key]).slice(1));
    noteOutdated(
      log,
      {
        version: version.name,
        collection: route.collection.key,
        source,
        pointer: broken.pointer,
        detail: absent === undefined ? broken.detail : 'absent (stored before the field existed); answered with its default',
      },
      m.onOutdatedValue,
    );
    return shaped.value;
  };
}

/** The route's down migration to its version, or null for the newest version (nothing to migrate). */
const downOf = (m: Mount, route: RouteSpec) => (Object.keys(route.down).length === 0 ? null : compileDown(route, m.hooks));

/** What {@link createPresenter} answers, as the JSON text to send (written in one pass, not stringified). */
export function createTextPresenter(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  source: string,
): (value: unknown, at: string, log?: WarnLog) => Written | Broken {
  return withFileLinks(m, version, route, textPresenterWithoutFiles(m, version, route, source));
}

function textPresenterWithoutFiles(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  source: string,
): (value: unknown, at: string, log?: WarnLog) => Written | Broken {
  const strict = createStrictTextPresenter(m, version, route, source);
  const older = createOlderReader(m, version, route, source);
  if (older === null) return strict;
  return (value, at, log) => {
    const shown = strict(value, at);
    if (shown.ok) return shown;
    const kept = older(value, at, shown, log);
    if (kept === null) return shown;
    return { ok: true, text: JSON.stringify(kept), from: kept };
  };
}

/** {@link createTextPresenter} without tolerance for older data. */
function createStrictTextPresenter(m: Mount, version: VersionSpec, route: RouteSpec, source: string): (value: unknown, at: string) => Written | Broken {
  const schema = route.schemas.response;
  const toVersion = downOf(m, route);
  // The id keeps its name, so the newest resource holds it as the text does (for `Location`).
  const readers = toVersion === null || Object.hasOwn(route.down, route.id) ? null : compileDownReaders(route, m.hooks);
  if (toVersion === null || readers === null) return presenterOf(version, route, source, toVersion, createWriter(schema, m.validateResponses));
  // Written from the newest resource through the down steps, without building the older one.
  const write = createWriter(schema, m.validateResponses, {
    readers,
    build: toVersion,
  });
  return (value, at) => {
    if (!isRecord(value) || Array.isArray(value)) return notResource(source, at);
    let written: Written | Failed;
    try {
      written = write(value);
    } catch (error) {
      // No hook runs here: what throws is the handler's resource (a getter) or a value JSON cannot hold.
      return {
        ok: false,
        source,
        pointer: at,
        detail: 'writing it threw',
        error,
      };
    }
    return written.ok ? written : blamed(route, source, at, written);
  };
}

/** A value that is not a resource object. */
const notResource = (source: string, at: string): Broken => ({
  ok: false,
  source,
  pointer: at,
  detail: 'not a resource object',
});

/** A failed shape, blamed on the handler or the hook that produced the field, at the pointer in the answer. */
const blamed = (route: RouteSpec, source: string, at: string, failed: Failed): Broken => ({
  ok: false,
  source: blameDown(route, source)(failed.pointer),
  pointer: at + failed.pointer.slice(1),
  detail: failed.detail,
});

function presenterOf<T extends { readonly ok: true }>(
  version: VersionSpec,
  route: RouteSpec,
  source: string,
  toVersion: ReturnType<typeof downOf>,
  shape: (value: unknown) => T | Failed,
): (value: unknown, at: string) => T | Broken {
  return (value, at) => {
    if (!isRecord(value) || Array.isArray(value)) return notResource(source, at);
    let migrated: unknown;
    try {
      migrated = toVersion === null ? value : toVersion(value);
    } catch (error) {
      const hooks = `migrations to ${version.name} of ${route.collection.key}`;
      return {
        ok: false,
        source: hooks,
        pointer: at,
        detail: 'a hook threw',
        error,
      };
    }
    const shaped = shape(migrated);
    return shaped.ok ? shaped : blamed(route, source, at, shaped);
  };
}

/**
 * A request of `version` migrated up to the newest version (`complete` for create and replace, which take
 * defaults). A type-change hook may turn a valid request into a value the newest version does not allow:
 * then the result is checked with the newest schema before it reaches the handler (and the store).
 */
export function createUpMigration(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  op: OperationName,
): (data: Record<string, unknown>, complete: boolean) => Checked {
  const up = route.up === null ? null : compileUp(route.up, m.hooks);
  const hooks = route.up?.hooks ?? {};
  const newest = m.newest.get(route.collection.key)!;
  const schemas: Partial<Record<OperationName, z.ZodType | undefined>> = {
    create: newest.schemas.create,
    replace: newest.schemas.replace,
    update: newest.schemas.patch,
  };
  const schema = Object.keys(hooks).length > 0 ? schemas[op] : undefined;
  const from = `migrations from ${version.name} of ${route.collection.key}`;
  // Migrated requests are checked against the newest version that serves the collection.
  const target = [...m.spec.versions].reverse().find((v) => v.routes.some((r) => r.collection.key === route.collection.key))!.name;
  return (data, complete) => {
    if (up === null) return { ok: true, value: data };
    let migrated: Record<string, unknown>;
    try {
      migrated = up(data, complete);
    } catch (error) {
      return {
        ok: false,
        source: from,
        pointer: '#',
        detail: 'a hook threw',
        error,
      };
    }
    if (schema === undefined) return { ok: true, value: migrated };
    const parsed = schema.safeParse(migrated);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0]!;
    const pointer = pointerOf(issue.path);
    const hook = hooks[fieldOf(pointer)]?.[0];
    const source = hook === undefined ? from : `migrations.${hook}.up`;
    return {
      ok: false,
      source,
      pointer,
      detail: issue.message,
      schema: target,
    };
  };
}
