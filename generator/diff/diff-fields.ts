/**
 * @module Compares the fields of one object (a collection or a nested object) between two projections:
 * pairs them (by key or by name), classifies additions, removals, renames and every modifier change, and
 * decides each change's direction from the field's modifiers and the operations that carry it.
 */
import type { ApiAt, CollectionAt, FieldAt, OperationName, SourceRef } from '../model/ir.ts';
import { touchesOf, type FindingCollector, type Touches } from './collector.ts';
import { compareTypes, signatureOf } from './diff-types.ts';
import type { RenameResolver } from './types.ts';

/** One side of a comparison: the API as one version (at one point in history) sees it, and a collection in it. */
export interface SideAt {
  readonly api: ApiAt;
  readonly collection: CollectionAt;
}

/** What comparing fields needs. */
export interface FieldDiffContext {
  readonly out: FindingCollector;
  readonly before: SideAt;
  readonly after: SideAt;
  readonly match: 'key' | 'name';
  readonly resolveRename: RenameResolver;
  readonly markerVersion: string;
}

/**
 * The operations in which a field flows, per channel: `body` (create/replace/update bodies), `required`
 * (bodies where a required field must be sent: create and replace; for nested fields every body),
 * `query` (list filters) and `response` (every operation that answers the resource).
 */
export interface Channels {
  readonly body: readonly OperationName[];
  readonly required: readonly OperationName[];
  readonly query: readonly OperationName[];
  readonly response: readonly OperationName[];
}

const only = (ops: readonly OperationName[], allowed: readonly OperationName[]) => ops.filter((op) => allowed.includes(op));

/** The channels of a collection's top-level fields. */
export function collectionChannels(c: CollectionAt): Channels {
  return {
    body: only(c.operations, ['create', 'replace', 'update']),
    required: only(c.operations, ['create', 'replace']),
    query: only(c.operations, ['list']),
    response: only(c.operations, ['list', 'get', 'create', 'replace', 'update']),
  };
}

function channelsOf(f: FieldAt, parent: Channels, top: boolean): Channels {
  return {
    body: f.readOnly ? [] : parent.body,
    required: f.readOnly ? [] : parent.required,
    query: top && f.filterable ? parent.query : [],
    response: f.writeOnly ? [] : parent.response,
  };
}

function nestedChannels(ch: Channels): Channels {
  return { body: ch.body, required: ch.body, query: [], response: ch.response };
}

function common(a: Channels, b: Channels): Channels {
  return { body: only(a.body, b.body), required: only(a.required, b.required), query: only(a.query, b.query), response: only(a.response, b.response) };
}

/** Required in responses: present unless optional without a default (the server fills defaults). */
const responseRequired = (f: FieldAt) => !f.optional || f.default !== undefined;

/** JSON with sorted keys: equal values give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

class FieldDiffer {
  constructor(private readonly ctx: FieldDiffContext) {}

  private touch(ops: readonly OperationName[]) {
    const { api, collection } = this.ctx.after;
    return touchesOf(api, collection, only(ops, collection.operations));
  }

  private touches(request: readonly OperationName[], response: readonly OperationName[]): Touches {
    return { request: this.touch(request), response: this.touch(response) };
  }

  private values(ch: Channels): Touches {
    return this.touches([...ch.body, ...ch.query], ch.response);
  }

  compareLists(before: readonly FieldAt[], after: readonly FieldAt[], path: string, parentB: Channels, parentA: Channels, top: boolean, parentLoc: SourceRef): void {
    const key = (f: FieldAt) => (this.ctx.match === 'key' ? f.key : f.name);
    const afterByKey = new Map(after.map((f) => [key(f), f]));
    const matched = new Set<FieldAt>();
    const removed: FieldAt[] = [];
    for (const b of before) {
      const a = afterByKey.get(key(b));
      if (a) {
        matched.add(a);
        this.compareField(b, a, path, parentB, parentA, top);
      } else removed.push(b);
    }
    const added = after.filter((a) => !matched.has(a));
    const paired = new Set<FieldAt>();
    const offered = new Set<FieldAt>();
    for (const a of added) {
      const b = removed.find((r) => !offered.has(r) && signatureOf(r.type) === signatureOf(a.type));
      if (b) offered.add(b);
      const decision = b ? this.ctx.resolveRename({ version: this.ctx.after.api.version.name, parent: path, removed: b, added: a }) : 'separate';
      if (b && decision === 'rename') {
        paired.add(b);
        this.compareField(b, a, path, parentB, parentA, top, true);
        continue;
      }
      if (b && decision === 'possible') {
        const at = `${path}.${a.name}`;
        const ca = channelsOf(a, parentA, top);
        const cb = channelsOf(b, parentB, top);
        this.ctx.out.add(
          'possible-undeclared-rename',
          at,
          `${path}.${b.name} was removed and ${at} added with the same type; if it is a rename, declare it on ${a.name} with .renamedFrom('${b.name}', '${this.ctx.markerVersion}')`,
          this.touches([...ca.body, ...cb.body], [...ca.response, ...cb.response]),
          a.loc,
        );
      }
      this.added(a, path, parentA, top);
    }
    for (const b of removed) if (!paired.has(b)) this.removed(b, path, parentB, top, parentLoc);
  }

  private added(a: FieldAt, path: string, parent: Channels, top: boolean): void {
    const at = `${path}.${a.name}`;
    const ch = channelsOf(a, parent, top);
    if (a.optional) this.ctx.out.add('optional-field-added', at, `${at} was added (optional)`, this.touches(ch.body, ch.response), a.loc);
    else {
      const dflt = a.default ? `, default ${stableJson(a.default.value)}` : '';
      this.ctx.out.add('required-field-added', at, `${at} was added (required${dflt})`, this.touches(ch.required, ch.response), a.loc);
    }
    if (ch.query.length) this.ctx.out.add('query-parameter-added', at, `${path} list accepts the new filter ?${a.name}=`, this.touches(ch.query, []), a.loc);
  }

  private removed(b: FieldAt, path: string, parent: Channels, top: boolean, parentLoc: SourceRef): void {
    const at = `${path}.${b.name}`;
    const ch = channelsOf(b, parent, top);
    const required = responseRequired(b);
    this.ctx.out.add(required ? 'required-field-removed' : 'optional-field-removed', at, `${at} was removed${required ? ' (it was required in responses)' : ''}`, this.touches(ch.body, ch.response), parentLoc);
    if (ch.query.length)
      this.ctx.out.add(b.deprecated ? 'deprecated-query-parameter-removed' : 'query-parameter-removed', at, `${path} list no longer accepts the filter ?${b.name}=`, this.touches(ch.query, []), parentLoc);
  }

  private compareField(b: FieldAt, a: FieldAt, path: string, parentB: Channels, parentA: Channels, top: boolean, undeclared = false): void {
    const out = this.ctx.out;
    const at = `${path}.${a.name}`;
    const cb = channelsOf(b, parentB, top);
    const ca = channelsOf(a, parentA, top);
    const both = common(cb, ca);
    const values = this.values(both);
    if (b.name !== a.name)
      out.add('field-renamed', at, `${path}.${b.name} was renamed to ${a.name}${undeclared ? ' (confirmed by the rename resolver)' : ''}`, values, a.loc);
    this.compareAccess(b, a, at, cb, ca, parentA);
    if (top && cb.query.length && !ca.query.length && parentA.query.length)
      out.add(b.deprecated ? 'deprecated-query-parameter-removed' : 'query-parameter-removed', at, `${path} list no longer accepts the filter ?${b.name}=`, this.touches(parentA.query, []), a.loc);
    if (top && !cb.query.length && ca.query.length && parentB.query.length)
      out.add('query-parameter-added', at, `${path} list accepts the new filter ?${a.name}=`, this.touches(ca.query, []), a.loc);
    // Requiredness differs per side: a default makes a field present in every response.
    const reqFlip = both.required.length > 0 && b.optional !== a.optional;
    const resFlip = both.response.length > 0 && responseRequired(b) !== responseRequired(a);
    const becameRequired = this.touches(reqFlip && !a.optional ? both.required : [], resFlip && responseRequired(a) ? both.response : []);
    const becameOptional = this.touches(reqFlip && a.optional ? both.required : [], resFlip && !responseRequired(a) ? both.response : []);
    out.add('field-became-required', at, `${at} became required`, becameRequired, a.loc);
    out.add('field-became-optional', at, `${at} became optional`, becameOptional, a.loc);
    if (b.nullable !== a.nullable)
      out.add(a.nullable ? 'field-became-nullable' : 'field-became-non-nullable', at, `${at} ${a.nullable ? 'may now be null' : 'may no longer be null'}`, this.touches(both.body, both.response), a.loc);
    const db = b.default ? stableJson(b.default.value) : 'none';
    const da = a.default ? stableJson(a.default.value) : 'none';
    if (db !== da) out.add('default-changed', at, `${at}: default ${db} → ${da}`, this.touches(both.required, []), a.loc);
    if (b.unique !== a.unique)
      out.add(a.unique ? 'field-became-unique' : 'field-no-longer-unique', at, `${at} ${a.unique ? 'must now be unique (a duplicate answers 409)' : 'no longer needs to be unique'}`, this.touches(both.body, []), a.loc);
    if (!b.deprecated && a.deprecated) out.add('field-deprecated', at, `${at} is deprecated`, values, a.loc);
    compareTypes(
      {
        out,
        loc: a.loc,
        onObject: (bf, af, p) => this.compareLists(bf, af, p, nestedChannels(cb), nestedChannels(ca), false, a.loc),
      },
      b.type,
      a.type,
      at,
      values,
    );
  }

  /** readOnly / writeOnly changes move a field into or out of requests or responses. */
  private compareAccess(b: FieldAt, a: FieldAt, at: string, cb: Channels, ca: Channels, parentA: Channels): void {
    const out = this.ctx.out;
    if (!b.readOnly && a.readOnly && cb.body.length)
      out.add('field-became-read-only', at, `${at} became read-only: requests that send it are rejected`, this.touches(only(cb.body, parentA.body), []), a.loc);
    if (b.readOnly && !a.readOnly && ca.body.length) {
      const rule = a.optional || !ca.required.length ? 'optional-field-added' : 'required-field-added';
      const ops = rule === 'required-field-added' ? ca.required : ca.body;
      out.add(rule, at, `${at} is no longer read-only: requests now carry it (${a.optional ? 'optional' : 'required'})`, this.touches(ops, []), a.loc);
    }
    if (!b.writeOnly && a.writeOnly && cb.response.length)
      out.add(responseRequired(b) ? 'required-field-removed' : 'optional-field-removed', at, `${at} became write-only: responses no longer carry it`, this.touches([], only(cb.response, parentA.response)), a.loc);
    if (b.writeOnly && !a.writeOnly && ca.response.length)
      out.add(responseRequired(a) ? 'required-field-added' : 'optional-field-added', at, `${at} is no longer write-only: responses now carry it`, this.touches([], ca.response), a.loc);
  }
}

/** Compares the top-level fields of two projections of one collection. */
export function compareCollectionFields(ctx: FieldDiffContext): void {
  const { before, after } = ctx;
  new FieldDiffer(ctx).compareLists(
    before.collection.fields,
    after.collection.fields,
    after.collection.name,
    collectionChannels(before.collection),
    collectionChannels(after.collection),
    true,
    after.collection.loc,
  );
}
