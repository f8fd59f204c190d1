/**
 * @module What a check works with: the collection's client (its exchanges judged and attributed to the
 * check), failures and how a check stops or is skipped, and records made with valid bodies: the records their
 * refs point to are created first (through the same version when it has them), and every body is checked
 * against the version's document before it is sent.
 */
import type { ApiIR, CollectionAt, FieldAt, TypeIR } from 'restgen/contract';
import { operationOf, routeOf, successOf, type CollectionClient, type Operation, type VersionScope } from './client.js';
import type { Session } from './session.js';
import type { AnswerRecord, CheckId, Exchange } from './types.js';
import { NoValue, type RefIds, type Values } from './values.js';

/** Thrown to end a check whose failure is recorded. */
export class Stopped extends Error {}
/** Thrown to skip a check, with the reason. */
export class Skipped extends Error {}

/** Why a check the deadline interrupted is skipped. */
const DEADLINE = 'the run deadline passed while it ran';

/** A record a check created. */
export interface Made {
  readonly id: string;
  /** The body sent. */
  readonly sent: Readonly<Record<string, unknown>>;
  /** The resource the create answered. */
  readonly resource: Readonly<Record<string, unknown>>;
  readonly etag: string | undefined;
  readonly exchange: Exchange;
}

/** Which fields a body carries: every writable one, or only those a request must send. */
export type BodyFields = 'all' | 'required';

/** The context of one check on one collection of one version. */
export interface CheckContext {
  readonly check: CheckId;
  readonly ir: ApiIR;
  readonly v: VersionScope;
  readonly c: CollectionAt;
  readonly api: CollectionClient;
  readonly values: Values;
  readonly concurrency: number;
  /** The name of the id field. */
  readonly idField: string;
  /** Whether the server converts `field`'s values in this version with a stand-in hook (`restgen serve`): not compared. */
  stoodIn(field: FieldAt): boolean;
  /** What a create or replace that leaves `field` out stores, as the contract says (a fill of the migrations), if anything. */
  omitted(field: FieldAt): { readonly value: unknown } | undefined;
  fail(operation: string, message: string, exchange?: Exchange): void;
  /** Records a failure and ends the check. */
  stop(operation: string, message: string, exchange?: Exchange): never;
  skip(reason: string): never;
  /** The answer, when its status is one of `statuses`; otherwise the check stops, saying what was being done. */
  expect(exchange: Exchange, statuses: readonly number[], doing: string): AnswerRecord;
  /** The answer, when it has the success status of the exchange's operation (the operations table's); else as `expect`. */
  succeeded(exchange: Exchange, doing: string): AnswerRecord;
  /** The answer's body as a resource (an object), or the check stops. */
  resource(exchange: Exchange, doing: string): Record<string, unknown>;
  /** A valid body for create or replace (refs created first); `overrides` replace generated values. */
  body(fields: BodyFields, overrides?: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** Creates a record of the collection (201 expected), with every writable field unless `fields` says otherwise. */
  create(overrides?: Readonly<Record<string, unknown>>, fields?: BodyFields): Promise<Made>;
  /** The id of a record of `collection` (newest name) for a ref: shared per version, or a new one. */
  parent(collection: string, fresh?: boolean): Promise<string>;
  /** Checks a body the run made against the document before sending it (skips the check when it is invalid). */
  ensureValid(operation: Operation, body: unknown): void;
  /** The client of another collection or version, its exchanges counted for this check. */
  clientOf(v: VersionScope, c: CollectionAt): CollectionClient;
  /**
   * Opens as many connections as the next burst of concurrent requests needs (N reads at once, of `id` or of
   * the list), so that the burst does not wait for connections and its requests reach the server together.
   */
  warm(id?: string): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The collections the refs of `fields` point to (at every depth). */
function refTargets(fields: readonly FieldAt[], out = new Set<string>()): Set<string> {
  const walk = (type: TypeIR<FieldAt>): void => {
    if (type.kind === 'ref') out.add(type.collection);
    else if (type.kind === 'array') walk(type.of);
    else if (type.kind === 'object') refTargets(type.fields, out);
  };
  for (const f of fields) if (!f.readOnly) walk(f.type);
  return out;
}

/** Whether a request must send the field (not optional, no default). */
export const isRequiredInput = (f: FieldAt): boolean => !f.readOnly && !f.optional && f.default === undefined;

/** A body of `fields`: every writable field, or only the required ones, with `overrides`. */
export function bodyOf(
  values: Values,
  fields: readonly FieldAt[],
  which: BodyFields,
  refs: RefIds,
  overrides: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (!f.readOnly && (which === 'all' || isRequiredInput(f))) out[f.name] = values.field(f, refs);
  return { ...out, ...overrides };
}

/** The advice a 401 or 403 answer gets. */
function credentialHint(status: number | undefined): string {
  if (status === 401) return ' (is a credential missing? pass one with --header, e.g. --header "Authorization: Bearer <token>")';
  if (status === 403) return ' (the credential lacks a scope this operation needs; use one that has every scope the API declares)';
  return '';
}

/** Options of {@link createContext}. */
export interface ContextOptions {
  /** Collections whose records are being made for refs (a required ref to one of them again cannot be made). */
  readonly making?: ReadonlySet<string>;
  /** The version and collection the check's result is reported under (default: `v` and `c`). */
  readonly label?: { readonly version: string; readonly collection: string };
}

/** Makes the context of `check` on `c` in `v`. */
export function createContext(session: Session, v: VersionScope, c: CollectionAt, check: CheckId, options: ContextOptions = {}): CheckContext {
  const making = options.making ?? new Set<string>();
  const label = options.label ?? { version: v.name, collection: c.name };
  const api = session.client(v, c, check, label);
  const idField = c.fields.find((f) => f.type.kind === 'id')?.name ?? 'id';
  const fail = (operation: string, message: string, exchange?: Exchange) => {
    // What a check saw after the deadline stopped its requests is no verdict on the server.
    if (exchange?.problem === 'deadline') throw new Skipped(DEADLINE);
    session.results.fail(label.version, label.collection, check, {
      operation,
      message,
      ...(exchange ? { request: exchange.request, answer: exchange.answer } : {}),
    });
  };
  const stop = (operation: string, message: string, exchange?: Exchange): never => {
    fail(operation, message, exchange);
    throw new Stopped(message);
  };
  const ctx: CheckContext = {
    check,
    ir: session.ir,
    v,
    c,
    api,
    values: session.values,
    concurrency: session.concurrency,
    idField,
    stoodIn: (f) => session.stoodIn(v.name, c.key, f.key),
    omitted(f) {
      const fills = v.contract.omitted[c.key];
      return fills !== undefined && Object.hasOwn(fills, f.key) ? { value: fills[f.key] } : undefined;
    },
    fail,
    stop,
    skip(reason) {
      throw new Skipped(reason);
    },
    expect(exchange, statuses, doing) {
      const answer = exchange.answer;
      if (answer === null) {
        if (exchange.problem === 'deadline') throw new Skipped(DEADLINE);
        throw new Stopped(`no answer while ${doing}`);
      }
      if (!statuses.includes(answer.status))
        stop(operationOf(exchange), `${doing}: answered ${answer.status}, expected ${statuses.join(' or ')}${credentialHint(answer.status)}`, exchange);
      return answer;
    },
    succeeded(exchange, doing) {
      return ctx.expect(exchange, [successOf(operationOf(exchange))], doing);
    },
    resource(exchange, doing) {
      const body = exchange.answer?.body;
      if (!isObject(body)) return stop(operationOf(exchange), `${doing}: the answer has no resource in its body`, exchange);
      return body;
    },
    async body(fields, overrides = {}) {
      const refs = new Map<string, string>();
      const generated = c.fields.filter((f) => (fields === 'all' || isRequiredInput(f)) && !(f.name in overrides));
      for (const target of refTargets(generated)) refs.set(target, await ctx.parent(target));
      return bodyOf(session.values, c.fields, fields, (key) => refs.get(key) ?? '', overrides);
    },
    async create(overrides = {}, fields = 'all') {
      if (!c.operations.includes('create')) ctx.skip(`${c.name} has no create in ${v.name}`);
      // A unique value another client took meanwhile answers 409: a fresh body is tried (the run's values rarely collide).
      for (let attempt = 0; ; attempt++) {
        const sent = await ctx.body(fields, overrides);
        ctx.ensureValid('create', sent);
        const exchange = await api.create(sent);
        if (exchange.answer?.status === 409 && attempt < 2 && c.fields.some((f) => f.unique)) continue;
        ctx.succeeded(exchange, `creating a ${c.name} record`);
        const resource = ctx.resource(exchange, `creating a ${c.name} record`);
        const id = resource[idField];
        if (typeof id !== 'string') return stop('create', `the created resource has no ${idField}`, exchange);
        return { id, sent, resource, etag: exchange.answer?.headers['etag'], exchange };
      }
    },
    async parent(collection, fresh = false) {
      const key = `${v.name}\0${collection}`;
      const known = session.parents.get(key);
      if (known !== undefined && !fresh) return known;
      if (making.has(collection)) throw new NoValue(`a ${collection} record needs a ${collection} record first (a required ref to itself)`);
      // Through this version when it has the collection with create, else the newest version that does.
      const names = [v.name, ...session.ir.versions.map((x) => x.name).reverse()];
      const where = names.map((n) => session.scope(n)).find((s) => s.api.collections.find((x) => x.key === collection)?.operations.includes('create'));
      const target = where?.api.collections.find((x) => x.key === collection);
      if (!where || !target) throw new NoValue(`no version can create the ${collection} record a ref points to`);
      const inner = createContext(session, where, target, 'documented-answers', { making: new Set([...making, c.key]) });
      const made = await inner.create({}, 'required').catch((error: unknown) => {
        if (error instanceof Stopped) stop('create', `could not create the ${collection} record a ref of ${c.name} points to: ${error.message}`);
        throw error;
      });
      if (!fresh) session.parents.set(key, made.id);
      return made.id;
    },
    ensureValid(operation, body) {
      const { method, template } = routeOf(v, c, operation);
      const problems = v.doc.requestProblems(method, template, body);
      if (problems.length > 0) ctx.skip(`the run could not make a valid body for ${method} ${template}: ${problems.join('; ')}`);
    },
    clientOf: (ov, oc) => session.client(ov, oc, check, label),
    async warm(id) {
      const read = () =>
        id !== undefined && c.operations.includes('get') ? api.get(id) : c.operations.includes('list') ? api.list({ limit: '1' }) : Promise.resolve(undefined);
      await Promise.all(Array.from({ length: session.concurrency }, read));
    },
  };
  return ctx;
}
