/**
 * @module The server emitter: `server/`, which imports the shared runtime from the `@restgen/runtime` package
 * (mounting, auth, limits, migrations, shaping, the in-memory store) and holds only the API: one
 * module per collection (`collections/<c>.ts`: settings, hooks, its route in each version, store spec,
 * handler and migration types), and the small modules that assemble them by name (`routes.ts`, `types.ts`,
 * `index.ts` with `registerXApi` and `createMemoryHandlers`). A changed field changes one small module.
 */
import type { ApiIR } from '../../model/ir.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { irHash } from '../ir-hash.ts';
import { keyedFile, templateFile } from '../keyed-file.ts';
import { buildCollectionFiles, summarizeCollection, type CollectionSummary } from './collection-view.ts';
import { buildServerContext, buildServerViews } from './server-view.ts';

/**
 * Emits `server/**` for an API. A collection's module is keyed by the collection's IR (every version's route
 * is projected from it) and the few API-wide names it uses; the assembling modules need only a summary of each
 * collection (its versions, and whether it has hooks, transitions or credentials), which builds no view.
 */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const ctx = buildServerContext(api);
  const inputs = api.collections.map((c) => JSON.stringify([ctx.name, ctx.versions, [...ctx.alias], ctx.hasAuth, irHash(c)]));
  const modules = api.collections.map((c, i) => {
    const render = (): string => options.render('server/collection', buildCollectionFiles(ctx, c).collection);
    return keyedFile({ path: `server/collections/${c.name}.ts`, language: 'typescript', kind: 'server collection', input: inputs[i]! }, render, options.memo);
  });
  // A summary is drawn from what its collection's module is rendered from: the module's key is the summary's.
  const { memo } = options;
  const summaries = api.collections.map((c, i) =>
    memo ? (JSON.parse(memo('server summary', inputs[i]!, () => JSON.stringify(summarizeCollection(ctx, c)), 'fact')) as CollectionSummary) : summarizeCollection(ctx, c),
  );
  const views = buildServerViews(api, ctx, summaries);
  const files = [
    templateFile('server/index.ts', 'server/index', views.index, options),
    templateFile('server/routes.ts', 'server/routes', views.routes, options),
    templateFile('server/types.ts', 'server/types', views.types, options),
  ];
  if (views.events) files.push(templateFile('server/events.ts', 'server/events', views.events, options));
  return [...files, ...modules];
}
