/**
 * @module Every emitter restgen runs, in a fixed order. Each owns one part of the output folder.
 */
import { emitChanges } from './changes/emit-changes.ts';
import { emitClient } from './client/emit-client.ts';
import { emitOpenApi } from './openapi/emit-openapi.ts';
import { emitServer } from './server/emit-server.ts';
import type { Emitter } from './types.ts';
import { emitZod } from './zod/emit-zod.ts';

/** The emitters of `restgen generate`, each with the output folder it owns. */
export const EMITTERS: readonly { readonly name: string; readonly emit: Emitter }[] = [
  { name: 'zod', emit: emitZod },
  { name: 'client', emit: emitClient },
  { name: 'openapi', emit: emitOpenApi },
  { name: 'server', emit: emitServer },
  { name: 'changes', emit: emitChanges },
];
