/**
 * @module Every emitter restgen runs, in a fixed order. Each owns one part of the output folder.
 */
import type { Emitter } from './types.ts';
import { emitZod } from './zod/emit-zod.ts';

/** The emitters of `restgen generate`, each with the output folder it owns. */
export const EMITTERS: readonly { readonly name: string; readonly emit: Emitter }[] = [
  { name: 'zod', emit: emitZod },
];
