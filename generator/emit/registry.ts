/**
 * @module Every emitter restgen runs, in a fixed order, one per part. What each part needs and imports is
 * in `parts.ts` (data only, so the CLI can read it without loading the emitters).
 */
import type { Part } from '../dsl/define-config.ts';
import { emitChanges } from './changes/emit-changes.ts';
import { emitClient } from './client/emit-client.ts';
import { emitMcp } from './mcp/emit-mcp.ts';
import { emitOpenApi } from './openapi/emit-openapi.ts';
import { PART_NAMES } from './parts.ts';
import { emitServer } from './server/emit-server.ts';
import type { Emitter } from './types.ts';
import { emitZod } from './zod/emit-zod.ts';

const EMIT: { readonly [P in Part]: Emitter } = {
  zod: emitZod,
  client: emitClient,
  openapi: emitOpenApi,
  server: emitServer,
  mcp: emitMcp,
  changes: emitChanges,
};

/** The emitters of `restgen generate`, each with the part (and output folder) it owns. */
export const EMITTERS: readonly { readonly name: Part; readonly emit: Emitter }[] = PART_NAMES.map((name) => ({ name, emit: EMIT[name] }));
