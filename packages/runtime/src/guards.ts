/**
 * Narrowing helpers the runtime modules share, for values that come from user code (handlers, hooks).
 */

/** Any function: handlers and hooks are called with the arguments their route computes. */
export type AnyFn = (...args: unknown[]) => unknown;
/** True for a function. */
export const isFn = (value: unknown): value is AnyFn => typeof value === 'function';
/** True for a non-null object, whose members can then be read. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
