/**
 * @module The CHANGES.md emitter: the version diff report between consecutive versions, for reviewers
 * and for client authors migrating from one version to the next; and UPGRADING.md, the upgrade guide
 * between consecutive released versions. Regenerated with everything else, so a pull request shows how
 * the changelog moved. Both are composed of comparisons of one collection each, so a change compares again only
 * the collections it reached.
 */
import { collectionComparisons, diffApis, type RecordedChange } from '../../diff/diff-apis.ts';
import { reportOf, versionsOf, withEvents } from '../../diff/diff-history.ts';
import type { DiffReport, VersionInfo } from '../../diff/types.ts';
import type { ApiAt, ApiIR, VersionIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { buildChangesView, pairView, type PairView } from '../../report/changes-view.ts';
import { readBackFacts, withReadBack, type ReadBackFacts } from '../../report/read-back.ts';
import { buildUpgradingView } from '../../report/upgrading-view.ts';
import { oneCollection, outputFile } from '../file.ts';
import { renderer, type EmitOptions, type OutputFile, type RenderUse } from '../types.ts';

/** Two sides of a comparison: each a version's projection (of one collection, or of the whole API). */
interface Sides {
  readonly before: ApiAt;
  readonly after: ApiAt;
}

/** The changes of one collection between two versions, from each version with only that collection. */
const COMPARISON = renderer('changes collection', ({ before, after }: Sides) =>
  JSON.stringify(collectionComparisons(before, after, { match: 'key' })[0]!.compare()),
);

/** What a report of two versions reads of the API besides them: its versions, and what the read-back notes need. */
interface History {
  readonly versions: readonly VersionInfo[];
  readonly readBack: ReadBackFacts;
}

/**
 * The report comparing two versions, each paired collection's comparison through `use`; a change made with a
 * fallback says what older clients read back.
 */
function reportOfPair({ before, after }: Sides, { versions, readBack }: History, use: RenderUse): DiffReport {
  const recorded = collectionComparisons(before, after, { match: 'key' }).map(
    (c) =>
      JSON.parse(
        use.call(COMPARISON, { before: oneCollection(before, c.before.collection), after: oneCollection(after, c.after.collection) }),
      ) as RecordedChange[],
  );
  const [from, to] = [before.version.name, after.version.name];
  const report = withEvents(reportOf(from, to, diffApis(before, after, { match: 'key' }, recorded), [{ from, to, version: to }], versions), after);
  return withReadBack(before, after, readBack, report);
}

/** CHANGES.md's section of one pair of consecutive versions. */
const PAIR = renderer('changes pair', (data: Sides & History, use) => JSON.stringify(pairView(data.before, data.after, reportOfPair(data, data, use))));

/**
 * What CHANGES.md and UPGRADING.md are generated from: the API's settings (its collections left out), the versions'
 * projections they compare (UPGRADING.md: the released ones only, so an edit of the version being developed leaves
 * it alone), the fallbacks of fields made required (the read-back notes name them) and the API module's path.
 */
interface ChangesData {
  readonly api: ApiIR;
  readonly projections: readonly ApiAt[];
  readonly readBack: ReadBackFacts;
  readonly sourcePath: string;
}

/** Each consecutive pair of `projections`. */
const pairsOf = (projections: readonly ApiAt[]): Sides[] => projections.slice(1).map((after, i) => ({ before: projections[i]!, after }));

const CHANGES = renderer('changes', ({ api, projections, readBack, sourcePath }: ChangesData, use) => {
  const history: History = { versions: versionsOf(api), readBack };
  const pairs = pairsOf(projections).map((pair) => JSON.parse(use.call(PAIR, { ...pair, ...history })) as PairView);
  return use.template('changes/changes', buildChangesView(api, sourcePath, pairs));
});

const UPGRADING = renderer('upgrading', ({ api, projections, readBack, sourcePath }: ChangesData, use) => {
  const history: History = { versions: versionsOf(api), readBack };
  const reports = pairsOf(projections).map((pair) => reportOfPair(pair, history, use));
  return use.template('changes/upgrading', buildUpgradingView(api, sourcePath, reports));
});

/** Emits `CHANGES.md` and `UPGRADING.md`; both are laid out as prettier lays them out (test/diff/changes.test.ts, test/golden). */
export const emitChanges = (api: ApiIR, options: Pick<EmitOptions, 'sourcePath' | 'render'>): OutputFile[] => {
  const settings: ApiIR = { ...api, collections: [] };
  const readBack = readBackFacts(api);
  const data = (versions: readonly VersionIR[]): ChangesData => ({
    api: settings,
    projections: versions.map((v) => project(api, v.name)),
    readBack,
    sourcePath: options.sourcePath,
  });
  const format = { language: 'markdown', preformatted: true } as const;
  return [
    outputFile('CHANGES.md', CHANGES, data(api.versions), options.render, format),
    outputFile('UPGRADING.md', UPGRADING, data(api.versions.filter((v) => v.released !== undefined)), options.render, format),
  ];
};
