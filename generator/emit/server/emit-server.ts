/**
 * @module The server emitter: `server/`, which imports the shared runtime from the `@restgen/runtime` package
 * (mounting, auth, limits, migrations, shaping, the in-memory store) and holds only the API: one
 * module per collection (`collections/<c>.ts`: settings, hooks, its route in each version, store spec,
 * handler and migration types), and the small modules that assemble them by name (`routes.ts`, `types.ts`,
 * `index.ts` with `registerXApi` and `createMemoryHandlers`). A changed field changes one small module.
 */
import { lazily } from '../../model/derived.ts';
import type { ApiIR } from '../../model/ir.ts';
import { oneCollection, outputFile, templateFile } from '../file.ts';
import { renderer, type EmitOptions, type OutputFile } from '../types.ts';
import { buildCollectionFiles, summarizeCollection, type CollectionSummary } from './collection-view.ts';
import { buildEventsView } from './events-view.ts';
import { buildServerContext, buildServerViews, specNameOf, type ServerViews } from './server-view.ts';

/** A collection's module, from the API with only that collection (every version's route is projected from it). */
const COLLECTION = renderer('server collection', (api: ApiIR, use) =>
  use.template('server/collection', buildCollectionFiles(buildServerContext(api), api.collections[0]!).collection),
);

/** What the assembling modules need of one collection, from the API with only that collection. */
const summaryOf = (api: ApiIR): CollectionSummary => summarizeCollection(buildServerContext(api), api.collections[0]!);

/**
 * What the assembling modules are generated from: the API's settings (its collections left out) and each
 * collection's summary, computed only when it is not known (a field change seldom changes a summary).
 */
interface AssemblyData {
  readonly api: ApiIR;
  readonly summaries: readonly CollectionSummary[];
}

const viewsOf = ({ api, summaries }: AssemblyData): ServerViews => buildServerViews(api, buildServerContext(api), summaries);
const INDEX = renderer('server index', (data: AssemblyData, use) => use.template('server/index', viewsOf(data).index));
const ROUTES = renderer('server routes', (data: AssemblyData, use) => use.template('server/routes', viewsOf(data).routes));
const TYPES = renderer('server types', (data: AssemblyData, use) => use.template('server/types', viewsOf(data).types));

/** Emits `server/**` for an API. */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const data: AssemblyData = {
    api: { ...api, collections: [] },
    summaries: api.collections.map((c) => lazily('server summary', summaryOf, oneCollection(api, c))),
  };
  const files: OutputFile[] = [
    outputFile('server/index.ts', INDEX, data, options.render),
    outputFile('server/routes.ts', ROUTES, data, options.render),
    outputFile('server/types.ts', TYPES, data, options.render),
  ];
  const events = buildEventsView(api, buildServerContext(api).name, specNameOf(api));
  if (events) files.push(templateFile('server/events.ts', 'server/events', events, options.render));
  for (const c of api.collections) files.push(outputFile(`server/collections/${c.name}.ts`, COLLECTION, oneCollection(api, c), options.render));
  return files;
}
