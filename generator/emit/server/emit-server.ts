/**
 * @module The server emitter: `server/` with the shared runtime, the in-memory store, the route table of
 * every version, the handler and option types, and the entry points (`registerXApi`, `createMemoryHandlers`).
 */
import type { ApiIR } from '../../model/ir.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { buildServerViews } from './server-view.ts';

const ts = (path: string, content: string): OutputFile => ({ path, content, language: 'typescript' });

/** Emits `server/*.ts` for an API. */
export function emitServer(api: ApiIR, options: EmitOptions): OutputFile[] {
  const views = buildServerViews(api);
  return [
    ts('server/index.ts', options.render('server/index', views.index)),
    ts('server/memory-store.ts', options.render('server/memory-store', {})),
    ts('server/routes.ts', options.render('server/routes', views.routes)),
    ts('server/runtime.ts', options.render('server/runtime', {})),
    ts('server/types.ts', options.render('server/types', views.types)),
  ];
}
