/**
 * Narrowing helpers the runtime modules share, for values that come from user code (handlers, hooks).
 */

/** Any function: handlers and hooks are called with the arguments their route computes. */
export type AnyFn = (...args: unknown[]) => unknown;
/** True for a function. */
export const isFn = (value: unknown): value is AnyFn => typeof value === 'function';
/** True for a non-null object, whose members can then be read. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * `value instanceof type`, and false where the check itself throws: `instanceof` asks a Proxy for its prototype,
 * and a Proxy whose trap throws must not turn a check of user code's value into a failure of the server's own.
 */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}
