/**
 * @module The client emitter: `client/index.ts` (the `createXClient` entry), `client/runtime/*.ts` (shared
 * transport, retries, errors, pagination: the modules of restgen's `runtime/client/` the API needs, copied
 * verbatim), per version a small `client/<version>.ts`
 * that assembles the version's namespace, and per collection `client/<version>/<collection>.ts` with that
 * collection's types. One file per collection keeps a field change to one small file to reformat. The
 * client imports nothing outside its folder.
 */
import { project } from '../../model/project.ts';
import { irHash } from '../ir-hash.ts';
import { outputFile, templateFile } from '../keyed-file.ts';
import { runtimeFiles } from '../runtime-files.ts';
import type { Emitter, OutputFile } from '../types.ts';
import { clientFeatures, clientRuntimeFiles } from './client-runtime.ts';
import { buildCollectionFile, buildIndexView, buildVersionView } from './client-view.ts';

/**
 * Emits the typed client SDK into `client/`. A collection's module is keyed by the collection as its version
 * sees it; a version's module by its view, which only names the collections (a field change leaves it alone).
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
    for (const c of at.collections) {
      // The types of the collections its expandable refs name, as this version calls them.
      const targets = c.query.expandable.map((x) => {
        const target = at.collections.find((y) => y.key === x.collection)!;
        return { collection: target.name, typeName: target.typeName };
      });
      const render = () => options.render('client/collection', buildCollectionFile(api, c, v.name, targets));
      const input = JSON.stringify([api.title, v.name, irHash(c), targets]);
      files.push(outputFile({ path: `client/${v.name}/${c.name}.ts`, language: 'typescript', kind: 'client collection', input }, render));
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
