/**
 * @module Compares the fields of one object (a collection or a nested object) between two projections:
 * pairs them (by key or by name), classifies additions, removals, renames and every modifier change, and
 * decides each change's direction from the field's modifiers and the operations that carry it. Each
 * finding points at the builder call that made the change: the marker between the two versions, or the
 * modifier that was edited.
 */
import type { ApiAt, CollectionAt, FieldAt, MarkerAt, SourceRef } from '../model/ir.ts';
import { type Channels, channelsOf, collectionChannels, common, nestedChannels, only, responseRequired, routeOpsOf } from './channels.ts';
import { stableJson, touchesOf, type FindingCollector, type RouteOp, type Touches } from './collector.ts';
import { compareTypes } from './diff-types.ts';
import { describeType, signatureOf } from './type-names.ts';
import { hintRename, reportMoves, type Removal, type Addition } from './rename-hints.ts';
import { nameSimilarity, pairBest } from './similarity.ts';
import type { Change, RenameResolver } from './types.ts';

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
  /** The version marker hints name; null when no declared version can carry one. */
  readonly markerVersion: string | null;
}

/** A field as a finding's before or after value. */
function fieldValue(f: FieldAt): Record<string, unknown> {
  return {
    name: f.name,
    type: describeType(f.type),
    optional: f.optional,
    nullable: f.nullable,
    ...(f.default ? { default: f.default.value } : {}),
    ...(f.readOnly ? { readOnly: true } : {}),
    ...(f.writeOnly ? { writeOnly: true } : {}),
  };
}

class FieldDiffer {
  /** Fields removed and added anywhere in the collection, for spotting a field moved into a nested object. */
  readonly removals: Removal[] = [];
  readonly additions: Addition[] = [];

  constructor(private readonly ctx: FieldDiffContext) {}

  private touch(ops: readonly RouteOp[]) {
    const { api, collection } = this.ctx.after;
    const offered = routeOpsOf(collection);
    // An event (`@type`) flows wherever its payload is compared; no collection offers it.
    return touchesOf(
      api,
      collection,
      ops.filter((op) => op.startsWith('@') || offered.includes(op)),
    );
  }

  private touches(request: readonly RouteOp[], response: readonly RouteOp[]): Touches {
    return { request: this.touch(request), response: this.touch(response) };
  }

  private values(ch: Channels): Touches {
    return this.touches([...ch.body, ...ch.query], ch.response);
  }

  /** The marker of `f` named `member` for a version between the two sides (declared changes, key mode). */
  private marker(f: FieldAt, ...members: MarkerAt['member'][]): SourceRef | undefined {
    const from = this.ctx.before.api.version.index;
    const to = this.ctx.after.api.version.index;
    if (this.ctx.match !== 'key' || from >= to) return undefined;
    return f.markers?.find((m) => members.includes(m.member) && m.index > from && m.index <= to)?.loc;
  }

  /** Where a change to `a` was made: the marker that declares it, else the modifier, else the field. */
  private locOf(a: FieldAt, modifier?: string, ...markers: MarkerAt['member'][]): SourceRef {
    return (markers.length ? this.marker(a, ...markers) : undefined) ?? (modifier ? a.calls?.[modifier] : undefined) ?? a.loc;
  }

  compareLists(
    before: readonly FieldAt[],
    after: readonly FieldAt[],
    path: string,
    parentB: Channels,
    parentA: Channels,
    top: boolean,
    parentLoc: SourceRef,
  ): void {
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
    // Pair by name similarity and type, never by position: the same type and alike names first; a type
    // change only when the names are clearly alike (a lower-confidence guess).
    const pairs = pairBest(removed, added, (r, a) => {
      const similar = nameSimilarity(r.name, a.name);
      if (signatureOf(r.type) === signatureOf(a.type)) return 1 + similar;
      return similar >= 0.6 ? similar : undefined;
    });
    const partner = new Map(pairs.map((p) => [added[p.right]!, removed[p.left]!]));
    const renamed = new Set<FieldAt>();
    for (const a of added) {
      const b = partner.get(a);
      const confidence = b && signatureOf(b.type) === signatureOf(a.type) ? 'high' : 'low';
      const decision = b ? this.ctx.resolveRename({ version: this.ctx.after.api.version.name, parent: path, removed: b, added: a, confidence }) : 'separate';
      if (b && decision === 'rename') {
        renamed.add(b);
        this.compareField(b, a, path, parentB, parentA, top, true);
        continue;
      }
      if (b && decision === 'possible') {
        const ca = channelsOf(a, parentA, top);
        const cb = channelsOf(b, parentB, top);
        const hint = hintRename(path, b, a, confidence, this.ctx.markerVersion);
        this.ctx.out.add(
          'possible-undeclared-rename',
          `${path}.${a.name}`,
          hint.message,
          this.touches([...ca.body, ...cb.body], [...ca.response, ...cb.response]),
          this.locOf(a, undefined, 'addedIn'),
          { aspect: 'name', before: b.name, after: a.name },
          hint.hint,
        );
      }
      this.added(a, path, parentA, top, parentB);
    }
    for (const b of removed) if (!renamed.has(b)) this.removed(b, path, parentB, top, parentLoc);
  }

  /**
   * A field with a default that requests now carry (added, or no longer read-only): a request that leaves it out gets
   * the default. A create gets it for a new resource, which breaks nothing; a replace (and, for a field of a nested
   * object, an update that sends the object) overwrites a stored value with it: a request that used to keep the
   * value now resets it. Those are the requests that break, where the earlier side already offered them; with none,
   * requests are not broken at all and the change is judged by its answers (safe).
   */
  private defaultedAddition(a: FieldAt, at: string, ch: Channels, before: Channels, what: string, loc: SourceRef, change: Change): void {
    const shown = stableJson(a.default!.value);
    const resetting = ch.required.filter((op) => (op === 'replace' || op === 'update') && before.body.includes(op));
    const names = resetting.map((op) => (op === 'update' ? 'an update that sends the object it is in' : 'a replace'));
    const message =
      resetting.length > 0
        ? `${what} (required, default ${shown}): ${names.join(' or ')} that leaves it out resets it to ${shown}; a create that leaves it out gets it`
        : `${what} (default ${shown}): requests that leave it out get the default, and none of them overwrites a stored value with it`;
    if (resetting.length > 0 || ch.response.length > 0)
      this.ctx.out.add('field-with-default-added', at, message, this.touches(resetting, ch.response), loc, change);
    // Only in requests (write-only) and resetting nothing: a field requests may leave out.
    else this.ctx.out.add('optional-field-added', at, message, this.touches(ch.body, []), loc, change);
  }

  private added(a: FieldAt, path: string, parent: Channels, top: boolean, before: Channels): void {
    const at = `${path}.${a.name}`;
    const ch = channelsOf(a, parent, top);
    const loc = this.locOf(a, undefined, 'addedIn');
    const change = { aspect: 'field', after: fieldValue(a) };
    if (a.optional) this.ctx.out.add('optional-field-added', at, `${at} was added (optional)`, this.touches(ch.body, ch.response), loc, change);
    else if (a.default) this.defaultedAddition(a, at, ch, before, `${at} was added`, loc, change);
    else this.ctx.out.add('required-field-added', at, `${at} was added (required)`, this.touches(ch.required, ch.response), loc, change);
    if (ch.query.length)
      this.ctx.out.add('query-parameter-added', at, `${path} list accepts the new filter ?${a.name}=`, this.touches(ch.query, []), loc, {
        aspect: 'filter',
        after: a.name,
      });
    this.additions.push({ path, field: a, touches: this.values(ch), loc });
  }

  private removed(b: FieldAt, path: string, parent: Channels, top: boolean, parentLoc: SourceRef): void {
    const at = `${path}.${b.name}`;
    const ch = channelsOf(b, parent, top);
    const required = responseRequired(b);
    // The removedIn marker when both sides come from one definition; otherwise the object it was in.
    const loc = this.marker(b, 'removedIn') ?? parentLoc;
    const change = { aspect: 'field', before: fieldValue(b) };
    this.ctx.out.add(
      required ? 'required-field-removed' : 'optional-field-removed',
      at,
      `${at} was removed${required ? ' (it was required in responses)' : ''}`,
      this.touches(ch.body, ch.response),
      loc,
      change,
    );
    if (ch.query.length)
      this.ctx.out.add(
        b.deprecated ? 'deprecated-query-parameter-removed' : 'query-parameter-removed',
        at,
        `${path} list no longer accepts the filter ?${b.name}=`,
        this.touches(ch.query, []),
        loc,
        { aspect: 'filter', before: b.name },
      );
    this.removals.push({ path, field: b, touches: this.values(ch), loc });
  }

  private compareField(b: FieldAt, a: FieldAt, path: string, parentB: Channels, parentA: Channels, top: boolean, undeclared = false): void {
    const out = this.ctx.out;
    const at = `${path}.${a.name}`;
    const cb = channelsOf(b, parentB, top);
    const ca = channelsOf(a, parentA, top);
    const both = common(cb, ca);
    const values = this.values(both);
    if (b.name !== a.name)
      out.add(
        'field-renamed',
        at,
        `${path}.${b.name} was renamed to ${a.name}${undeclared ? ' (confirmed by the rename resolver)' : ''}`,
        values,
        this.locOf(a, undefined, 'renamedFrom'),
        { aspect: 'name', before: b.name, after: a.name },
      );
    this.compareAccess(b, a, at, cb, ca, parentA, parentB);
    const filterLoc = this.locOf(a, 'filterable');
    if (top && cb.query.length && !ca.query.length && parentA.query.length)
      out.add(
        b.deprecated ? 'deprecated-query-parameter-removed' : 'query-parameter-removed',
        at,
        `${path} list no longer accepts the filter ?${b.name}=`,
        this.touches(parentA.query, []),
        filterLoc,
        { aspect: 'filter', before: b.name },
      );
    if (top && !cb.query.length && ca.query.length && parentB.query.length)
      out.add('query-parameter-added', at, `${path} list accepts the new filter ?${a.name}=`, this.touches(ca.query, []), filterLoc, {
        aspect: 'filter',
        after: a.name,
      });
    // Requiredness differs per side: a default makes a field present in every response.
    const reqFlip = both.required.length > 0 && b.optional !== a.optional;
    const resFlip = both.response.length > 0 && responseRequired(b) !== responseRequired(a);
    const becameRequired = this.touches(reqFlip && !a.optional ? both.required : [], resFlip && responseRequired(a) ? both.response : []);
    const becameOptional = this.touches(reqFlip && a.optional ? both.required : [], resFlip && !responseRequired(a) ? both.response : []);
    const optionality = { aspect: 'optional', before: b.optional, after: a.optional };
    out.add('field-became-required', at, `${at} became required`, becameRequired, this.locOf(a, undefined, 'madeRequiredIn', 'typeChangedFrom'), optionality);
    out.add('field-became-optional', at, `${at} became optional`, becameOptional, this.locOf(a, 'optional', 'madeOptionalIn', 'typeChangedFrom'), optionality);
    if (b.nullable !== a.nullable)
      out.add(
        a.nullable ? 'field-became-nullable' : 'field-became-non-nullable',
        at,
        `${at} ${a.nullable ? 'may now be null' : 'may no longer be null'}`,
        this.touches(both.body, both.response),
        this.locOf(a, 'nullable', 'typeChangedFrom'),
        { aspect: 'nullable', before: b.nullable, after: a.nullable },
      );
    const db = b.default ? stableJson(b.default.value) : 'none';
    const da = a.default ? stableJson(a.default.value) : 'none';
    if (db !== da)
      out.add('default-changed', at, `${at}: default ${db} → ${da}`, this.touches(both.required, []), this.locOf(a, 'default', 'typeChangedFrom'), {
        aspect: 'default',
        before: b.default?.value,
        after: a.default?.value,
      });
    if (b.unique !== a.unique)
      out.add(
        a.unique ? 'field-became-unique' : 'field-no-longer-unique',
        at,
        `${at} ${a.unique ? 'must now be unique (a duplicate answers 409)' : 'no longer needs to be unique'}`,
        this.touches(both.body, []),
        this.locOf(a, 'unique', 'typeChangedFrom'),
        { aspect: 'unique', before: b.unique, after: a.unique },
      );
    if (!b.deprecated && a.deprecated)
      out.add('field-deprecated', at, `${at} is deprecated`, values, this.locOf(a, 'deprecated', 'typeChangedFrom'), {
        aspect: 'deprecated',
        before: false,
        after: true,
      });
    const typeMarker = this.marker(a, 'typeChangedFrom');
    const isState = top && this.ctx.after.collection.lifecycle?.field === a.name;
    compareTypes(
      {
        out,
        loc: (modifier) => typeMarker ?? (modifier ? a.calls?.[modifier] : undefined) ?? a.loc,
        markerVersion: this.ctx.markerVersion,
        onObject: (bf, af, p) => this.compareLists(bf, af, p, nestedChannels(cb), nestedChannels(ca), false, a.loc),
        ...(isState ? { enumRules: { added: 'state-added', removed: 'state-removed' } as const } : {}),
      },
      b.type,
      a.type,
      at,
      values,
    );
  }

  /** readOnly / writeOnly changes move a field into or out of requests or responses. */
  private compareAccess(b: FieldAt, a: FieldAt, at: string, cb: Channels, ca: Channels, parentA: Channels, parentB: Channels): void {
    const out = this.ctx.out;
    const loc = (modifier: string) => this.locOf(a, modifier, 'typeChangedFrom');
    const readOnly = { aspect: 'readOnly', before: b.readOnly, after: a.readOnly };
    const writeOnly = { aspect: 'writeOnly', before: b.writeOnly, after: a.writeOnly };
    if (!b.readOnly && a.readOnly && cb.body.length)
      out.add(
        'field-became-read-only',
        at,
        `${at} became read-only: requests that send it are rejected`,
        this.touches(only(cb.body, parentA.body), []),
        loc('readOnly'),
        readOnly,
      );
    if (b.readOnly && !a.readOnly && ca.body.length && !a.optional && a.default && ca.required.length)
      this.defaultedAddition(a, at, { ...ca, response: [] }, parentB, `${at} is no longer read-only: requests now carry it`, loc('readOnly'), readOnly);
    else if (b.readOnly && !a.readOnly && ca.body.length) {
      const rule = a.optional || !ca.required.length ? 'optional-field-added' : 'required-field-added';
      const ops = rule === 'required-field-added' ? ca.required : ca.body;
      out.add(
        rule,
        at,
        `${at} is no longer read-only: requests now carry it (${a.optional ? 'optional' : 'required'})`,
        this.touches(ops, []),
        loc('readOnly'),
        readOnly,
      );
    }
    if (!b.writeOnly && a.writeOnly && cb.response.length)
      out.add(
        responseRequired(b) ? 'required-field-removed' : 'optional-field-removed',
        at,
        `${at} became write-only: responses no longer carry it`,
        this.touches([], only(cb.response, parentA.response)),
        loc('writeOnly'),
        writeOnly,
      );
    if (b.writeOnly && !a.writeOnly && ca.response.length)
      out.add(
        responseRequired(a) ? 'required-field-added' : 'optional-field-added',
        at,
        `${at} is no longer write-only: responses now carry it`,
        this.touches([], ca.response),
        loc('writeOnly'),
        writeOnly,
      );
  }
}

/** Compares the top-level fields of two projections of one collection, then looks for fields moved between objects. */
export function compareCollectionFields(ctx: FieldDiffContext): void {
  const { before, after } = ctx;
  const differ = new FieldDiffer(ctx);
  differ.compareLists(
    before.collection.fields,
    after.collection.fields,
    after.collection.name,
    collectionChannels(before.collection),
    collectionChannels(after.collection),
    true,
    after.collection.loc,
  );
  reportMoves(ctx.out, ctx.markerVersion, after.api.version.name, differ.removals, differ.additions);
}

/**
 * Compares the input fields of one transition (`op`, `:cancel`) by the request rules: they flow only in
 * its body. `path` is the transition's location (`orders:cancel`).
 */
export function compareInputFields(
  ctx: FieldDiffContext,
  before: readonly FieldAt[],
  after: readonly FieldAt[],
  path: string,
  op: RouteOp,
  loc: SourceRef,
): void {
  const channels: Channels = { body: [op], required: [op], query: [], response: [] };
  new FieldDiffer(ctx).compareLists(before, after, path, channels, channels, false, loc);
}

/**
 * Compares the payload fields of one webhook event (`op`, `@invoice.overdue`) by the response rules: they
 * flow only from the server to subscribers. `path` is the event's location (`webhooks.invoice.overdue`).
 */
export function compareOutputFields(
  ctx: FieldDiffContext,
  before: readonly FieldAt[],
  after: readonly FieldAt[],
  path: string,
  op: RouteOp,
  loc: SourceRef,
): void {
  const channels: Channels = { body: [], required: [], query: [], response: [op] };
  new FieldDiffer(ctx).compareLists(before, after, path, channels, channels, false, loc);
}
