/**
 * @module The server emitter: `server/`, which imports the shared runtime from the `@restgen/runtime` package
 * (mounting, auth, limits, migrations, shaping, the in-memory store) and holds only the API: one
 * module per collection (`collections/<c>.ts`: settings, hooks, its route in each version, store spec,
 * handler and migration types), and the small modules that assemble them by name (`routes.ts`, `types.ts`,
 * `index.ts` with `registerXApi` and `createMemoryHandlers`). A changed field changes one small module.
 */
import type { ApiIR } from '../../model/ir.ts';
import { oneCollection, outputFile, templateFile } from '../file.ts';
import { renderer, type EmitOptions, type OutputFile, type RenderUse } from '../types.ts';
import { buildCollectionFiles, summarizeCollection, type CollectionSummary } from './collection-view.ts';
import { buildEventsView } from './events-view.ts';
import { buildServerContext, buildServerViews, specNameOf, type ServerViews } from './server-view.ts';

/** A collection's module, from the API with only that collection (every version's route is projected from it). */
const COLLECTION = renderer('server collection', (api: ApiIR, use) =>
  use.template('server/collection', buildCollectionFiles(buildServerContext(api), api.collections[0]!).collection),
);

/** What the assembling modules need of one collection, from the API with only that collection. */
const SUMMARY = renderer('server summary', (api: ApiIR) => JSON.stringify(summarizeCollection(buildServerContext(api), api.collections[0]!)));

/** The views of the assembling modules: each collection's summary (kept apart, so a field change summarizes one). */
function viewsOf(api: ApiIR, use: RenderUse): ServerViews {
  const summaries = api.collections.map((c) => JSON.parse(use.call(SUMMARY, oneCollection(api, c))) as CollectionSummary);
  return buildServerViews(api, buildServerContext(api), summaries);
}

const INDEX = renderer('server index', (api: ApiIR, use) => use.template('server/index', viewsOf(api, use).index));
const ROUTES = renderer('server routes', (api: ApiIR, use) => use.template('server/routes', viewsOf(api, use).routes));
const TYPES = renderer('server types', (api: ApiIR, use) => use.template('server/types', viewsOf(api, use).types));

/** Emits `server/**` for an API. */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const files: OutputFile[] = [
    outputFile('server/index.ts', INDEX, api, options.render),
    outputFile('server/routes.ts', ROUTES, api, options.render),
    outputFile('server/types.ts', TYPES, api, options.render),
  ];
  const events = buildEventsView(api, buildServerContext(api).name, specNameOf(api));
  if (events) files.push(templateFile('server/events.ts', 'server/events', events, options.render));
  for (const c of api.collections) files.push(outputFile(`server/collections/${c.name}.ts`, COLLECTION, oneCollection(api, c), options.render));
  return files;
}
