/**
 * @module The CHANGES.md emitter: the version diff report between consecutive versions, for reviewers
 * and for client authors migrating from one version to the next. Regenerated with everything else, so a
 * pull request shows how the changelog moved.
 */
import type { EmitOptions, OutputFile } from '../types.ts';
import type { ApiIR } from '../../model/ir.ts';
import { irHash } from '../ir-hash.ts';
import { buildChangesView } from './changes-view.ts';

/** Emits `CHANGES.md`; when the API is unchanged (source locations aside), the diff is not run again. */
export const emitChanges = (api: ApiIR, options: Pick<EmitOptions, 'sourcePath' | 'render' | 'memo'>): OutputFile[] => [
  {
    path: 'CHANGES.md',
    content: (options.memo ?? ((_kind, _input, compute) => compute()))('changes', JSON.stringify([irHash(api), options.sourcePath]), () =>
      options.render('changes/changes', buildChangesView(api, options.sourcePath)),
    ),
    language: 'markdown',
    // Tables are laid out as prettier lays them out; test/diff/changes.test.ts compares the two.
    preformatted: true,
  },
];
