/**
 * @module The CHANGES.md emitter: the version diff report between consecutive versions, for reviewers
 * and for client authors migrating from one version to the next; and UPGRADING.md, the upgrade guide
 * between consecutive released versions. Regenerated with everything else, so a pull request shows how
 * the changelog moved.
 */
import type { EmitOptions, OutputFile } from '../types.ts';
import type { ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { irHash, projectionHash } from '../ir-hash.ts';
import { outputFile } from '../keyed-file.ts';
import { buildChangesView } from '../../report/changes-view.ts';
import { changesParts } from './changes-parts.ts';
import { buildUpgradingView } from '../../report/upgrading-view.ts';
import { madeRequiredFallbacks } from '../../report/read-back.ts';

/**
 * Emits `CHANGES.md`, keyed by every version's projection and assembled from the comparisons of its collections
 * (see `changesParts`), and `UPGRADING.md`, keyed by the released versions' projections.
 */
export const emitChanges = (api: ApiIR, options: Pick<EmitOptions, 'sourcePath' | 'render'>): OutputFile[] => [
  outputFile(
    {
      path: 'CHANGES.md',
      language: 'markdown',
      kind: 'changes',
      // The fallbacks of fields made required: the notes on what older clients read back name them.
      input: JSON.stringify([
        api.title,
        options.sourcePath,
        irHash(api.versions),
        api.versions.map((v) => projectionHash(project(api, v.name))),
        irHash(madeRequiredFallbacks(api)),
      ]),
      parts: changesParts(api),
      // Tables are laid out as prettier lays them out; test/diff/changes.test.ts compares the two.
      preformatted: true,
    },
    (parts) => options.render('changes/changes', buildChangesView(api, options.sourcePath, parts)),
  ),
  outputFile(
    {
      path: 'UPGRADING.md',
      language: 'markdown',
      kind: 'upgrading',
      // The guide compares released versions only: a change to what an unreleased version serves leaves it as it
      // is (its name and dates are still part of the input: they are in the versions list).
      input: JSON.stringify([
        api.title,
        options.sourcePath,
        irHash(api.versions),
        api.versioning,
        api.versions.filter((v) => v.released).map((v) => projectionHash(project(api, v.name))),
        irHash(madeRequiredFallbacks(api)),
      ]),
      // Laid out as prettier lays it out; test/golden/prettier-exact.test.ts compares the two.
      preformatted: true,
    },
    () => options.render('changes/upgrading', buildUpgradingView(api, options.sourcePath)),
  ),
];
