/**
 * @module The server emitter: `server/` with the shared runtime (`server/runtime/*.ts`, restgen's
 * `runtime/server/` copied verbatim: mounting, auth, limits, migrations, shaping, the in-memory store), one
 * module per collection (`collections/<c>.ts`: settings, hooks, its route in each version, store spec,
 * handler and migration types), and the small modules that assemble them by name (`routes.ts`, `types.ts`,
 * `index.ts` with `registerXApi` and `createMemoryHandlers`). A changed field changes one small module.
 */
import { takesBearer, type ApiIR } from '../../model/ir.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { runtimeFiles } from '../runtime-files.ts';
import { buildServerViews } from './server-view.ts';

const ts = (path: string, content: string): OutputFile => ({ path, content, language: 'typescript' });

/**
 * The server runtime. An API that takes no bearer tokens gets `no-jwt.ts` as its `jwt.ts` (the same exports,
 * without jose), so its server does not need jose installed.
 */
function serverRuntime(api: ApiIR, options: EmitOptions): OutputFile[] {
  const files = runtimeFiles(options.runtime, 'server/', 'server/runtime/');
  const standIn = files.find((f) => f.path === 'server/runtime/no-jwt.ts');
  if (!standIn) throw new Error("internal error: restgen's runtime/server/no-jwt.ts is missing");
  const rest = files.filter((f) => f !== standIn);
  if (takesBearer(api.auth)) return rest;
  return rest.map((f) => (f.path === 'server/runtime/jwt.ts' ? { ...f, content: standIn.content } : f));
}

/** Emits `server/**` for an API. */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const views = buildServerViews(api);
  const files = [
    ts('server/index.ts', options.render('server/index', views.index)),
    ts('server/routes.ts', options.render('server/routes', views.routes)),
    ts('server/types.ts', options.render('server/types', views.types)),
    ...serverRuntime(api, options),
  ];
  if (views.events) files.push(ts('server/events.ts', options.render('server/events', views.events)));
  for (const c of views.collections) files.push(ts(`server/collections/${c.key}.ts`, options.render('server/collection', c.collection)));
  return files;
}
