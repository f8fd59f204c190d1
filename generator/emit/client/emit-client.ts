/**
 * @module The client emitter: `client/index.ts` (the `createXClient` entry), `client/runtime.ts` (shared
 * transport, retries, errors, pagination; the same for every API) and one `client/<version>.ts` per
 * version with that version's types and namespace. The client imports nothing outside its folder.
 */
import type { Emitter, OutputFile } from '../types.ts';
import { buildIndexView, buildVersionView } from './client-view.ts';

/** Emits the typed client SDK into `client/`. */
export const emitClient: Emitter = (api, options) => {
  const files: OutputFile[] = [
    { path: 'client/index.ts', content: options.render('client/index', buildIndexView(api)), language: 'typescript' },
    { path: 'client/runtime.ts', content: options.render('client/runtime', {}), language: 'typescript' },
    ...api.versions.map((v): OutputFile => ({
      path: `client/${v.name}.ts`,
      content: options.render('client/version', buildVersionView(api, v)),
      language: 'typescript',
    })),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
