/**
 * @module The diff engine's entry point: compares two projections of an API (two versions of one IR, or
 * one version at two points in history) and returns classified findings. Pure: no clock, no files.
 */
import { compareEvents } from './diff-events.ts';
import type { ApiAt, CollectionAt, SourceRef, VersionIR } from '../model/ir.ts';
import { FindingCollector, touchesOf, type Touch, type Touches } from './collector.ts';
import { compareAuth } from './diff-auth.ts';
import { compareCollection, isPublic } from './diff-collections.ts';
import { signatureOf } from './type-names.ts';
import { hintCollectionRename } from './rename-hints.ts';
import type { RuleName } from './rules.ts';
import type { Change, DiffOptions, Finding, RenameResolver } from './types.ts';
import type { SideAt } from './diff-fields.ts';
import { atPath } from '../model/diagnostics.ts';

/** The default resolver: every removal plus addition of the same type is a possible rename. */
export const reportPossibleRenames: RenameResolver = () => 'possible';

/** Every route of every collection of `api`. */
export function allTouches(api: ApiAt): Touch[] {
  return api.collections.flatMap((c) => touchesOf(api, c, c.operations));
}

function guardedTouches(api: ApiAt): Touch[] {
  return api.collections.flatMap((c) =>
    touchesOf(
      api,
      c,
      c.operations.filter((op) => !isPublic(api, c, op)),
    ),
  );
}

/** Pairs collections: by key (or name), then leftovers by path (a rename at the same path). */
function pairCollections(before: ApiAt, after: ApiAt, match: 'key' | 'name') {
  const key = (c: CollectionAt) => (match === 'key' ? c.key : c.name);
  // Looked up in maps, not by scanning: a thousand collections would otherwise cost a million comparisons.
  const index = (of: (c: CollectionAt) => string) => {
    const map = new Map<string, CollectionAt[]>();
    for (const c of after.collections) map.set(of(c), [...(map.get(of(c)) ?? []), c]);
    return (b: CollectionAt) => map.get(of(b))?.find((c) => !used.has(c));
  };
  const byKey = index(key);
  const byPath = index((c) => c.path);
  const pairs: [CollectionAt, CollectionAt][] = [];
  const used = new Set<CollectionAt>();
  const removed: CollectionAt[] = [];
  for (const b of before.collections) {
    const a = byKey(b);
    if (a) {
      used.add(a);
      pairs.push([b, a]);
    } else removed.push(b);
  }
  const gone: CollectionAt[] = [];
  for (const b of removed) {
    const a = byPath(b);
    if (a) {
      used.add(a);
      pairs.push([b, a]);
    } else gone.push(b);
  }
  return { pairs, removed: gone, added: after.collections.filter((c) => !used.has(c)) };
}

/** Where a property of `defineApi({...})` is written (`versions.v1.sunset`, `auth.bearer`). */
function apiLoc(api: ApiAt, ...path: string[]): SourceRef | undefined {
  return api.loc ? atPath(api.loc, path) : undefined;
}

function compareLifecycle(out: FindingCollector, api: ApiAt, b: VersionIR, a: VersionIR, touches: Touches): void {
  const v = a.name;
  const at = (key: string) => apiLoc(api, 'versions', v, key);
  const change = (aspect: 'released' | 'deprecated' | 'sunset') => ({ aspect, before: b[aspect], after: a[aspect] });
  if (b.released && !a.released)
    out.add(
      'version-unreleased',
      v,
      `${v} was released on ${b.released} and is no longer marked released`,
      touches,
      apiLoc(api, 'versions', v),
      change('released'),
    );
  else if (!b.released && a.released)
    out.add('version-released', v, `${v} is released on ${a.released}: it is frozen from now on`, touches, at('released'), change('released'));
  else if (b.released !== a.released)
    out.add('version-release-date-changed', v, `${v}: release date ${b.released} → ${a.released}`, touches, at('released'), change('released'));
  if (!b.deprecated && a.deprecated)
    out.add('version-deprecated', v, `${v} is deprecated from ${a.deprecated}`, touches, at('deprecated'), change('deprecated'));
  else if (b.deprecated && !a.deprecated)
    out.add('version-undeprecated', v, `${v} is no longer deprecated`, touches, apiLoc(api, 'versions', v), change('deprecated'));
  else if (b.deprecated !== a.deprecated)
    out.add('version-deprecated', v, `${v}: deprecation date ${b.deprecated} → ${a.deprecated}`, touches, at('deprecated'), change('deprecated'));
  if (!b.sunset && a.sunset)
    out.add('version-sunset-set', v, `${v} sunsets on ${a.sunset} (answers 410 from then on)`, touches, at('sunset'), change('sunset'));
  else if (b.sunset && !a.sunset)
    out.add('version-sunset-moved-later', v, `${v}: sunset ${b.sunset} withdrawn`, touches, apiLoc(api, 'versions', v), change('sunset'));
  else if (b.sunset && a.sunset && b.sunset !== a.sunset)
    out.add(
      a.sunset < b.sunset ? 'version-sunset-moved-earlier' : 'version-sunset-moved-later',
      v,
      `${v}: sunset ${b.sunset} → ${a.sunset}`,
      touches,
      at('sunset'),
      change('sunset'),
    );
}

function compareApiLevel(out: FindingCollector, before: ApiAt, after: ApiAt): void {
  const vb = before.versioning;
  const va = after.versioning;
  const describe = (x: ApiAt['versioning']) => (x.in === 'path' ? 'the path (/vN/...)' : `the ${x.header} header`);
  const label = (x: ApiAt['versioning']) => (x.in === 'path' ? 'path' : `header ${x.header}`);
  if (vb.in !== va.in || (vb.in === 'header' && va.in === 'header' && vb.header !== va.header))
    out.add(
      'versioning-changed',
      'versioning',
      `clients now select the version by ${describe(va)} instead of ${describe(vb)}`,
      { request: allTouches(before), response: allTouches(before) },
      apiLoc(after, 'versioning'),
      { aspect: 'versioning', before: label(vb), after: label(va) },
    );
  compareAuth(out, before, after, { request: guardedTouches(after), response: [] });
}

/** The fields of a collection as comparable text: names and types, in name order. */
function fieldSet(c: CollectionAt): string {
  return c.fields
    .map((f) => `${f.name}:${signatureOf(f.type)}`)
    .sort()
    .join(',');
}

/** One change as a comparison of one pair of collections reported it, without its source location and hint. */
export type RecordedChange = readonly [rule: RuleName, location: string, message: string, touches: Touches, change?: Change];

/**
 * One comparison of a pair of collections, as {@link collectionComparisons} lists it: the two sides (what the
 * comparison reads: the collections, and their versions' settings) and the comparison itself, which returns its
 * changes without source locations or hints (for views that show neither, such as CHANGES.md).
 */
export interface CollectionComparison {
  readonly before: SideAt;
  readonly after: SideAt;
  readonly compare: () => RecordedChange[];
}

/** A collector that keeps the changes it is given as they were added, to be replayed into another one. */
class ChangeRecorder extends FindingCollector {
  readonly recorded: RecordedChange[] = [];

  override add(rule: RuleName, location: string, message: string, touches: Touches, _loc?: SourceRef, change?: Change): void {
    if (touches.request.length === 0 && touches.response.length === 0) return;
    this.recorded.push(change ? [rule, location, message, touches, change] : [rule, location, message, touches]);
  }
}

/** What comparing two projections shares: where findings go, how collections pair up, which version hints name. */
function contextOf(after: ApiAt, options: DiffOptions, out: FindingCollector) {
  const match = options.match ?? 'key';
  const markerVersion = options.markerVersion === undefined ? after.version.name : options.markerVersion;
  return { out, match, resolveRename: options.resolveRename ?? reportPossibleRenames, markerVersion };
}

/**
 * The comparisons of paired collections {@link diffApis} makes, in its order, each runnable on its own: a cache
 * may keep what one found and hand it back (`recorded`) for sides that did not change.
 */
export function collectionComparisons(before: ApiAt, after: ApiAt, options: DiffOptions = {}): CollectionComparison[] {
  const ctx = contextOf(after, options, new FindingCollector(after.version.name));
  return pairCollections(before, after, ctx.match).pairs.map(([b, a]) => {
    const sides = { before: { api: before, collection: b }, after: { api: after, collection: a } };
    return {
      ...sides,
      compare: () => {
        const recorder = new ChangeRecorder(after.version.name);
        compareCollection({ ...ctx, ...sides, out: recorder });
        return recorder.recorded;
      },
    };
  });
}

/**
 * Compares two projections. With `match: 'key'` (the default) both must come from one IR, so declared
 * renames pair up; with `match: 'name'` they may come from different IRs (one version at two git refs).
 * Version dates are compared only when both sides are the same version. `recorded`: what each of
 * {@link collectionComparisons} found, in its order, replayed instead of comparing (changes replayed carry no
 * source location and no hint).
 * @example diffApis(project(api, 'v1'), project(api, 'v2'), {})
 */
export function diffApis(before: ApiAt, after: ApiAt, options: DiffOptions = {}, recorded?: readonly (readonly RecordedChange[])[]): Finding[] {
  const out = new FindingCollector(after.version.name);
  const ctx = contextOf(after, options, out);
  const { match, markerVersion } = ctx;
  compareApiLevel(out, before, after);
  if (before.version.name === after.version.name) {
    const all = allTouches(after);
    compareLifecycle(out, after, before.version, after.version, { request: all, response: all });
  }
  const { pairs, removed, added } = pairCollections(before, after, match);
  pairs.forEach(([b, a], i) => {
    const changes = recorded?.[i];
    if (changes === undefined) return compareCollection({ ...ctx, before: { api: before, collection: b }, after: { api: after, collection: a } });
    // Replayed in the order the comparison added them: the findings are the same as those of a live run.
    for (const [rule, location, message, touches, change] of changes) out.add(rule, location, message, touches, undefined, change);
  });
  compareEvents(out, before, after, ctx);
  for (const b of removed) {
    const t = touchesOf(before, b, b.operations);
    // In one definition the collection is still written down, with its removedIn marker.
    const loc = match === 'key' ? b.calls?.['removedIn'] : undefined;
    out.add('collection-removed', b.name, `${b.name} was removed (every route under /${b.path})`, { request: t, response: t }, loc, {
      aspect: 'collection',
      before: b.path,
    });
  }
  for (const a of added) {
    const t = touchesOf(after, a, a.operations);
    out.add(
      'collection-added',
      a.name,
      `${a.name} was added at /${a.path}`,
      { request: t, response: t },
      (match === 'key' ? a.calls?.['addedIn'] : undefined) ?? a.loc,
      { aspect: 'collection', after: a.path },
    );
  }
  for (const b of removed) {
    const a = added.find((x) => fieldSet(x) === fieldSet(b));
    if (!a) continue;
    const { message, hint } = hintCollectionRename(b.name, a.name, markerVersion);
    const t = { request: [...touchesOf(before, b, b.operations), ...touchesOf(after, a, a.operations)], response: [] };
    out.add(
      'possible-collection-rename',
      a.name,
      message,
      { request: t.request, response: t.request },
      a.loc,
      { aspect: 'name', before: b.name, after: a.name },
      hint,
    );
  }
  return out.findings();
}
