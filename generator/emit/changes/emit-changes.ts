/**
 * @module The CHANGES.md emitter: the version diff report between consecutive versions, for reviewers
 * and for client authors migrating from one version to the next. Regenerated with everything else, so a
 * pull request shows how the changelog moved.
 */
import type { EmitOptions, OutputFile } from '../types.ts';
import type { ApiIR } from '../../model/ir.ts';
import { buildChangesView } from './changes-view.ts';

/** Emits `CHANGES.md`; version pairs whose projections are unchanged are not compared again (see `buildChangesView`). */
export const emitChanges = (api: ApiIR, options: Pick<EmitOptions, 'sourcePath' | 'render' | 'memo'>): OutputFile[] => [
  {
    path: 'CHANGES.md',
    content: options.render('changes/changes', buildChangesView(api, options.sourcePath, options.memo)),
    language: 'markdown',
    // Tables are laid out as prettier lays them out; test/diff/changes.test.ts compares the two.
    preformatted: true,
  },
];
