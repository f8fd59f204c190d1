/**
 * @module The client emitter: `client/index.ts` (the `createXClient` entry), `client/runtime/*.ts` (shared
 * transport, retries, errors, pagination: restgen's `runtime/client/` copied verbatim), per version a small `client/<version>.ts`
 * that assembles the version's namespace, and per collection `client/<version>/<collection>.ts` with that
 * collection's types. One file per collection keeps a field change to one small file to reformat. The
 * client imports nothing outside its folder.
 */
import { runtimeFiles } from '../runtime-files.ts';
import type { Emitter, OutputFile } from '../types.ts';
import { buildIndexView, buildVersionViews } from './client-view.ts';

/** Emits the typed client SDK into `client/`. */
export const emitClient: Emitter = (api, options) => {
  const ts = (path: string, content: string): OutputFile => ({ path: `client/${path}`, content, language: 'typescript' });
  const files: OutputFile[] = [ts('index.ts', options.render('client/index', buildIndexView(api))), ...runtimeFiles(options.runtime, 'client/', 'client/runtime/')];
  for (const v of api.versions) {
    const views = buildVersionViews(api, v);
    files.push(ts(`${v.name}.ts`, options.render('client/version', views.version)));
    for (const c of views.collections) files.push(ts(c.path, options.render('client/collection', c.view)));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
