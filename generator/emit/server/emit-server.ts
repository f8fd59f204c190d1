/**
 * @module The server emitter: `server/` with the shared runtime (one module per concern in `runtime/`,
 * re-exported by `runtime.ts`) and in-memory store, one module per collection (`collections/<c>.ts`:
 * settings, hooks, its route in each version, store spec, handler and migration types), and the small
 * modules that assemble them by name (`routes.ts`, `types.ts`, `index.ts` with `registerXApi` and
 * `createMemoryHandlers`). A changed field reformats one small module, not a route table of every version.
 */
import type { ApiIR } from '../../model/ir.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { buildServerViews } from './server-view.ts';

/** The modules of the shared runtime, `server/runtime/<name>.ts`, each from `templates/server/runtime/<name>.hbs`. */
const RUNTIME_MODULES = ['auth', 'gate', 'guards', 'handle', 'idempotency', 'migrate', 'mount', 'openapi', 'paths', 'problems', 'rate-limit', 'spec', 'state', 'types'];

const ts = (path: string, content: string): OutputFile => ({ path, content, language: 'typescript' });

/** Emits `server/**` for an API. */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const views = buildServerViews(api);
  const files = [
    ts('server/index.ts', options.render('server/index', views.index)),
    ts('server/memory-store.ts', options.render('server/memory-store', {})),
    ts('server/routes.ts', options.render('server/routes', views.routes)),
    ts('server/runtime.ts', options.render('server/runtime', {})),
    ts('server/types.ts', options.render('server/types', views.types)),
  ];
  for (const m of RUNTIME_MODULES) files.push(ts(`server/runtime/${m}.ts`, options.render(`server/runtime/${m}`, {})));
  for (const c of views.collections) files.push(ts(`server/collections/${c.key}.ts`, options.render('server/collection', c.collection)));
  return files;
}
