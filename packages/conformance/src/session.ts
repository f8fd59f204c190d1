/**
 * @module One run against one server: the HTTP client, the run's values, the verdicts, the versions as the
 * run calls them, and the records it created (deleted again at the end of each phase). Every exchange a check
 * makes is judged here: against the version's document (`documented-answers`), for write-only fields
 * (`write-only-hidden`), and, when it created something, remembered for the cleanup.
 */
import type { ApiIR, CollectionAt, ConformanceContract } from 'restgen/contract';
import { createClient, type CollectionClient, type Target, type VersionScope } from './client.js';
import { createVersionDocument } from './documents.js';
import type { Http } from './http.js';
import { Results } from './results.js';
import type { Values } from './values.js';
import type { CheckId, Exchange, Leftover } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The pointers of write-only fields present in `value` (a resource of `fields`), at every depth. */
export function writeOnlyPointers(fields: CollectionAt['fields'], value: unknown, at = '#'): string[] {
  if (!isObject(value)) return [];
  const found: string[] = [];
  for (const f of fields) {
    const member = value[f.name];
    if (f.writeOnly && member !== undefined) found.push(`${at}/${f.name}`);
    const type = f.type.kind === 'array' ? f.type.of : f.type;
    if (type.kind !== 'object') continue;
    const items = Array.isArray(member) ? member : [member];
    items.forEach((item, i) => found.push(...writeOnlyPointers(type.fields, item, Array.isArray(member) ? `${at}/${f.name}/${i}` : `${at}/${f.name}`)));
  }
  return found;
}

/** A record the run created. */
interface Created {
  readonly version: string;
  readonly key: string;
  readonly id: string;
}

/** The state of one run. */
export class Session {
  readonly results = new Results();
  readonly #created: Created[] = [];
  readonly #scopes = new Map<string, VersionScope>();
  readonly leftovers: Leftover[] = [];
  /** Records made for refs to point to, by version and collection (newest name). */
  readonly parents = new Map<string, string>();
  /** The stand-in hooks the server names (`restgen serve`), by id `<version>.<collection>.<field>`. */
  standIns: readonly string[] = [];

  /** The checked model of the API. */
  readonly ir: ApiIR;

  constructor(
    readonly contract: ConformanceContract,
    readonly http: Http,
    readonly values: Values,
    readonly concurrency: number,
  ) {
    this.ir = contract.ir;
  }

  /**
   * Whether the values of field `field` (newest name) of collection `collection` in `version` pass through a stand-in
   * hook of the server: one of a later version. A run does not compare them: they are the stand-in's guesses.
   */
  stoodIn(version: string, collection: string, field: string): boolean {
    const order = this.ir.versions.map((v) => v.name);
    return this.standIns.some((id) => {
      // Collection and field names hold no dot; the version is the rest.
      const parts = id.split('.');
      const [c, f] = parts.slice(-2);
      return c === collection && f === field && order.indexOf(version) < order.indexOf(parts.slice(0, -2).join('.'));
    });
  }

  /** The version as the run calls it (its document's validators compiled once). */
  scope(version: string): VersionScope {
    let scope = this.#scopes.get(version);
    if (!scope) {
      const contract = this.contract.versions.find((x) => x.name === version);
      if (!contract) throw new Error(`the contract has no version ${version}`);
      const header = this.ir.versioning.in === 'header' ? { [this.ir.versioning.header.toLowerCase()]: version } : {};
      scope = {
        name: version,
        api: contract.api,
        contract,
        doc: createVersionDocument(contract.document),
        prefix: this.ir.versioning.in === 'path' ? `/${version}` : '',
        headers: header,
      };
      this.#scopes.set(version, scope);
    }
    return scope;
  }

  /**
   * A client of `c` in `v` whose exchanges count for `check` (a request without an answer fails it, reported
   * under `label`), their document problems for `documented-answers` of `v` and `c`.
   */
  client(v: VersionScope, c: CollectionAt, check: CheckId, label = { version: v.name, collection: c.name }): CollectionClient {
    return createClient(this.http, v, c, (target, exchange) => this.observe(target, exchange, check, label));
  }

  /** Judges an exchange and remembers what it created. */
  observe(target: Target, exchange: Exchange, check: CheckId, label: { readonly version: string; readonly collection: string }): void {
    const { v, c, operation } = target;
    const answer = exchange.answer;
    // A request the deadline stopped says nothing about the server: the check it was part of is skipped.
    if (exchange.problem === 'deadline') return;
    if (answer === null) {
      this.results.fail(label.version, label.collection, check, {
        operation,
        message: `no answer: ${exchange.error ?? 'the request failed'}`,
        request: exchange.request,
        answer: null,
      });
      return;
    }
    for (const problem of v.doc.judge(target.method, target.template, exchange))
      this.results.fail(v.name, c.name, 'documented-answers', { operation, message: problem, request: exchange.request, answer });
    let hidden: string[] = [];
    if (answer.status >= 200 && answer.status < 300 && c.fields.some((f) => f.writeOnly || f.type.kind === 'object' || f.type.kind === 'array')) {
      const items = operation === 'list' && isObject(answer.body) && Array.isArray(answer.body['data']) ? answer.body['data'] : [answer.body];
      hidden = items.flatMap((item, i) => writeOnlyPointers(c.fields, item, operation === 'list' ? `#/data/${i}` : '#'));
      if (hidden.length > 0)
        this.results.fail(v.name, c.name, 'write-only-hidden', {
          operation,
          message: `the answer carries write-only ${hidden.join(', ')}`,
          request: exchange.request,
          answer,
        });
    }
    // A write-only field is not declared by the answer either: write-only-hidden says so already.
    const undeclared = v.doc.undeclared(target.method, target.template, exchange).filter((p) => !hidden.includes(p));
    if (undeclared.length > 0)
      this.results.fail(v.name, c.name, 'declared-fields', {
        operation,
        message: `the answer carries ${undeclared.length === 1 ? 'a field' : 'fields'} ${v.name} does not declare: ${undeclared.slice(0, 5).join(', ')}${undeclared.length > 5 ? `, and ${undeclared.length - 5} more` : ''} (send only what the contract declares: a column the API does not name stays in the database)`,
        request: exchange.request,
        answer,
      });
    if (operation === 'create' && answer.status === 201 && isObject(answer.body)) {
      const id = answer.body[c.fields.find((f) => f.type.kind === 'id')?.name ?? 'id'];
      if (typeof id === 'string' && !this.#created.some((r) => r.key === c.key && r.id === id)) this.#created.push({ version: v.name, key: c.key, id });
    }
  }

  /**
   * Deletes every record the run created, newest first (children before the records they refer to), through
   * the version that created it, or another version that can delete it. What cannot be deleted is a leftover.
   */
  async cleanup(): Promise<void> {
    const records = this.#created.splice(0).reverse();
    this.parents.clear();
    // Deletes the deadline kept from being sent wait for the cleanup after it (which gets a grace of its own).
    const later: Created[] = [];
    for (const r of records) {
      const versions = [r.version, ...this.ir.versions.map((x) => x.name).reverse()];
      const where = versions
        .map((name) => ({ v: this.scope(name), c: this.scope(name).api.collections.find((x) => x.key === r.key) }))
        .find((x) => x.c?.operations.includes('delete'));
      const name = this.scope(r.version).api.collections.find((x) => x.key === r.key)?.name ?? r.key;
      if (!where?.c) {
        this.leftovers.push({ collection: name, id: r.id, reason: 'no version offers delete' });
        continue;
      }
      const client = createClient(this.http, where.v, where.c, null);
      const exchange = await client.remove(r.id);
      if (exchange.problem === 'deadline') {
        later.push(r);
        continue;
      }
      let status = exchange.answer?.status;
      // With If-Match (where the collection requires it), a record a check deleted already answers 412.
      if (status === 412 && where.c.operations.includes('get')) status = (await client.get(r.id)).answer?.status;
      if (status !== 204 && status !== 200 && status !== 404)
        this.leftovers.push({
          collection: name,
          id: r.id,
          reason: exchange.answer ? `DELETE answered ${status}` : `DELETE failed: ${exchange.error ?? 'no answer'}`,
        });
    }
    this.#created.unshift(...later.reverse());
  }

  /** Records the run made and has not deleted yet. */
  get pending(): number {
    return this.#created.length;
  }

  /** Lists every record not deleted yet as left behind, with `reason`. */
  abandon(reason: string): void {
    for (const r of this.#created.splice(0).reverse())
      this.leftovers.push({ collection: this.scope(r.version).api.collections.find((x) => x.key === r.key)?.name ?? r.key, id: r.id, reason });
  }
}
