/**
 * @module The CHANGES.md emitter: the version diff report between consecutive versions, for reviewers
 * and for client authors migrating from one version to the next. Regenerated with everything else, so a
 * pull request shows how the changelog moved.
 */
import type { EmitOptions, OutputFile } from '../types.ts';
import type { ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { irHash, projectionHash } from '../ir-hash.ts';
import { outputFile } from '../keyed-file.ts';
import { buildChangesView, changesParts } from './changes-view.ts';

/**
 * Emits `CHANGES.md`, keyed by every version's projection and assembled from the comparisons of its collections
 * (see `changesParts`).
 */
export const emitChanges = (api: ApiIR, options: Pick<EmitOptions, 'sourcePath' | 'render'>): OutputFile[] => [
  outputFile(
    {
      path: 'CHANGES.md',
      language: 'markdown',
      kind: 'changes',
      input: JSON.stringify([api.title, options.sourcePath, irHash(api.versions), api.versions.map((v) => projectionHash(project(api, v.name)))]),
      parts: changesParts(api),
      // Tables are laid out as prettier lays them out; test/diff/changes.test.ts compares the two.
      preformatted: true,
    },
    (parts) => options.render('changes/changes', buildChangesView(api, options.sourcePath, parts)),
  ),
];
