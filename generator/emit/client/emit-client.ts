/**
 * @module The client emitter: `client/index.ts` (the `createXClient` entry), `client/runtime/*.ts` (shared
 * transport, retries, errors, pagination: the modules of restgen's `runtime/client/` the API needs, copied
 * verbatim), per version a small `client/<version>.ts`
 * that assembles the version's namespace, and per collection `client/<version>/<collection>.ts` with that
 * collection's types. One file per collection keeps a field change to one small file to reformat. The
 * client imports nothing outside its folder.
 */
import type { CollectionAt } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { outputFile, templateFile } from '../file.ts';
import { runtimeFiles } from '../runtime-files.ts';
import { renderer, type Emitter, type OutputFile } from '../types.ts';
import { clientFeatures, clientRuntimeFiles } from './client-runtime.ts';
import { buildCollectionFile, buildIndexView, buildVersionView } from './client-view.ts';

/** What a collection's module is generated from: the API's title, the version's name and the collection as it sees it. */
interface CollectionData {
  readonly title: string;
  readonly version: string;
  readonly collection: CollectionAt;
}

const COLLECTION = renderer('client collection', ({ title, version, collection }: CollectionData, use) =>
  use.template('client/collection', buildCollectionFile({ title }, collection, version)),
);

/**
 * Emits the typed client SDK into `client/`. A version's module is generated from its view, which only names the
 * collections (a field change leaves it alone).
 */
export const emitClient: Emitter = (api, options) => {
  const runtime = clientRuntimeFiles(options.runtime, clientFeatures(api));
  const files: OutputFile[] = [
    templateFile('client/index.ts', 'client/index', buildIndexView(api), options.render),
    ...runtimeFiles(options.runtime, 'client/', 'client/runtime/', runtime),
  ];
  for (const v of api.versions) {
    const at = project(api, v.name);
    files.push(templateFile(`client/${v.name}.ts`, 'client/version', buildVersionView(api, v), options.render));
    for (const collection of at.collections)
      files.push(outputFile(`client/${v.name}/${collection.name}.ts`, COLLECTION, { title: api.title, version: v.name, collection }, options.render));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
