/**
 * @module How CHANGES.md is assembled from parts the render cache keeps: the pair views of `report/changes-view.ts`,
 * each from the comparisons of its collections. The emitter reads the report's views; the report knows nothing of
 * emitters or caches.
 */
import { collectionComparisons, diffApis, type RecordedChange } from '../../diff/diff-apis.ts';
import { reportOf, versionsOf } from '../../diff/diff-history.ts';
import type { ApiAt, ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { pairView, versionPairs } from '../../report/changes-view.ts';
import { madeRequiredFallbacks, withReadBack } from '../../report/read-back.ts';
import { irHash, projectionHash } from '../ir-hash.ts';
import type { RenderPart } from '../types.ts';

/**
 * CHANGES.md's parts: one per pair of consecutive versions (its view, keyed by the two versions' projections, so
 * a pair neither version of which changed is not compared at all), each assembled from the comparisons of its
 * paired collections (keyed by the two sides: each collection and what it reads of its version), so a change
 * compares again only the collections it reached. Their texts, in order, are what {@link buildChangesView} takes.
 */
export function changesParts(api: ApiIR): RenderPart[] {
  // What a collection's comparison reads of its version besides the collection itself.
  const sideKey = (at: ApiAt) => irHash({ version: at.version, versioning: at.versioning, auth: at.auth, rateLimit: at.rateLimit ?? null });
  // The notes on what older clients read back name fallbacks that the projections do not all hold.
  const versions = `${irHash(api.versions)} ${irHash(madeRequiredFallbacks(api))}`;
  return versionPairs(api).map(([from, to]): RenderPart => {
    const [b, a] = [project(api, from), project(api, to)];
    const comparisons = () => collectionComparisons(b, a, { match: 'key' });
    return {
      kind: 'changes pair',
      input: `${projectionHash(b)} ${projectionHash(a)} ${versions}`,
      // Listed only when the pair is compared: a cache that holds the pair never asks.
      get parts(): RenderPart[] {
        const sides = `${sideKey(b)} ${sideKey(a)}`;
        return comparisons().map((c) => ({
          kind: 'changes collection',
          input: `${sides} ${irHash(c.before.collection)} ${irHash(c.after.collection)}`,
          compute: () => JSON.stringify(c.compare()),
        }));
      },
      compute: (texts) => {
        const recorded = texts.map((text) => JSON.parse(text) as RecordedChange[]);
        const findings = diffApis(b, a, { match: 'key' }, recorded);
        return JSON.stringify(pairView(api, withReadBack(api, reportOf(from, to, findings, [{ from, to, version: to }], versionsOf(api)))));
      },
    };
  });
}
