/**
 * @module The server emitter: `server/`, which imports the shared runtime from the `@restgen/runtime` package
 * (mounting, auth, limits, migrations, shaping, the in-memory store) and holds only the API: one
 * module per collection (`collections/<c>.ts`: settings, hooks, its route in each version, store spec,
 * handler and migration types), and the small modules that assemble them by name (`routes.ts`, `types.ts`,
 * `index.ts` with `registerXApi` and `createMemoryHandlers`). A changed field changes one small module.
 */
import type { ApiIR } from '../../model/ir.ts';
import type { EmitOptions, OutputFile, RenderPart } from '../types.ts';
import { irHash } from '../ir-hash.ts';
import { outputFile, templateFile } from '../keyed-file.ts';
import { buildCollectionFiles, summarizeCollection, type CollectionSummary } from './collection-view.ts';
import { buildEventsView } from './events-view.ts';
import { buildServerContext, buildServerViews, specNameOf } from './server-view.ts';

/**
 * What the assembling modules (`index.ts`, `routes.ts`, `types.ts`) read of the API besides the collections'
 * summaries: their key, with the summaries' keys. Whole objects are hashed (versions, versioning, auth, rate
 * limit), so a setting added to one of them later is covered without a change here.
 */
function assemblyInput(api: ApiIR): string {
  return JSON.stringify([
    api.name,
    irHash(api.versions),
    irHash(api.versioning),
    irHash(api.auth),
    api.rateLimit ? irHash(api.rateLimit) : null,
    api.collections.map((c) => [c.name, c.builtin ?? null]),
  ]);
}

/**
 * Emits `server/**` for an API. A collection's module is keyed by the collection's IR (every version's route
 * is projected from it) and the few API-wide names it uses; the assembling modules are assembled from a summary
 * of each collection (its versions, and whether it has hooks, transitions or credentials): parts keyed as the
 * collection's module is, so an unchanged collection is not summarized again.
 */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const ctx = buildServerContext(api);
  const inputs = api.collections.map((c) => JSON.stringify([ctx.name, ctx.versions, [...ctx.alias], ctx.hasAuth, irHash(c)]));
  const modules = api.collections.map((c, i) =>
    outputFile({ path: `server/collections/${c.name}.ts`, language: 'typescript', kind: 'server collection', input: inputs[i]! }, () =>
      options.render('server/collection', buildCollectionFiles(ctx, c).collection),
    ),
  );
  const parts: RenderPart[] = api.collections.map((c, i) => ({
    kind: 'server summary',
    input: inputs[i]!,
    compute: () => JSON.stringify(summarizeCollection(ctx, c)),
    fact: true,
  }));
  const input = assemblyInput(api);
  // index, routes and types render from the same summaries: the views are built once for all three.
  let built: { readonly texts: readonly string[]; readonly views: ReturnType<typeof buildServerViews> } | undefined;
  const views = (texts: readonly string[]) => {
    if (built?.texts.length !== texts.length || !texts.every((t, i) => t === built!.texts[i]))
      built = {
        texts,
        views: buildServerViews(
          api,
          ctx,
          texts.map((t) => JSON.parse(t) as CollectionSummary),
        ),
      };
    return built.views;
  };
  const spec = (name: string) => ({ path: `server/${name}.ts`, language: 'typescript', kind: `server ${name}`, input, parts }) as const;
  const files = [
    outputFile(spec('index'), (texts) => options.render('server/index', views(texts).index)),
    outputFile(spec('routes'), (texts) => options.render('server/routes', views(texts).routes)),
    outputFile(spec('types'), (texts) => options.render('server/types', views(texts).types)),
  ];
  const events = buildEventsView(api, ctx.name, specNameOf(api));
  if (events) files.push(templateFile('server/events.ts', 'server/events', events, options.render));
  return [...files, ...modules];
}
