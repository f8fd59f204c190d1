/**
 * @module The intermediate representation: readonly plain data with `kind` discriminants, built once from
 * the DSL and read by every emitter. It keeps the whole history (markers, `ir-history.ts`); `project()` turns it
 * into the API as one version sees it (`ir-at.ts`). Fields and collections keep the order the user wrote them in.
 * Every stage imports the IR from here.
 */
export type { OperationName } from '../dsl/defs.ts';
export * from './ir-at.ts';
export * from './ir-auth.ts';
export * from './ir-history.ts';
export * from './ir-query.ts';
