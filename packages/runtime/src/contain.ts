/**
 * What user code fails with never escapes the runtime: handlers, hooks, `authenticate`, `pinnedVersion`, the
 * listeners (`onVersionUse`, `onOutdatedValue`) and stores may throw or reject with anything, a value whose every
 * property access throws included (a hostile getter, a Proxy, a revoked Proxy). pino's error serializer reads such
 * a value's properties, so logging it can throw: inside a promise's rejection handler that is an unhandled
 * rejection, which ends the process; inside a route, a 500 in place of the answer. Everything here is total.
 */
import { isFn, isRecord } from './guards.js';

/** The levels failures are logged at. */
export type FailureLevel = 'warn' | 'error';

/** A log with method `L`, as the runtime writes to it: Fastify's (pino's) request or instance log, or a dispatcher's `log`. */
export type FailureLog<L extends FailureLevel> = { readonly [K in L]: (obj: object, msg: string) => void };

/** What can be told of a thrown value without trusting it: pino's `err` fields, each read on its own. */
export interface ThrownDescription {
  readonly type: string;
  readonly message: string;
  readonly stack?: string;
}

/** The text `read` gives, or undefined when it throws or gives something else. */
function textOf(read: () => unknown): string | undefined {
  try {
    const value = read();
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Describes a thrown or rejected value; never throws, whatever the value. */
export function describeThrown(value: unknown): ThrownDescription {
  if (!isRecord(value) && !isFn(value)) return { type: value === null ? 'null' : typeof value, message: String(value) };
  const thrown = value as { readonly name?: unknown; readonly message?: unknown; readonly stack?: unknown };
  const stack = textOf(() => thrown.stack);
  return {
    type: textOf(() => thrown.name) ?? 'unreadable',
    message: textOf(() => thrown.message) ?? textOf(() => String(value)) ?? 'a value whose properties cannot be read',
    ...(stack === undefined ? {} : { stack }),
  };
}

/**
 * Logs `fields` (the failure under `err`) at `level`; when writing them throws, logs them again with every
 * object among them described by {@link describeThrown}. Never throws: a failure of the log itself is dropped,
 * since nothing is left that could report it and the caller must go on answering.
 */
export function logSafely<L extends FailureLevel>(log: FailureLog<L> | undefined, level: L, fields: Readonly<Record<string, unknown>>, message: string): void {
  if (log === undefined) return;
  try {
    log[level](fields, message);
    return;
  } catch {
    // Written below, without reading what may throw again.
  }
  try {
    const described = Object.fromEntries(Object.entries(fields).map(([key, v]) => [key, isRecord(v) || isFn(v) ? describeThrown(v) : v]));
    log[level](described, message);
  } catch {
    // The log itself fails: there is nowhere left to report it.
  }
}

/**
 * Calls a listener (user code that only observes) so that nothing it does reaches the caller: what it throws,
 * and the rejection of a promise or thenable it returns, go to `failed`, which must not throw either.
 */
export function callListener(call: () => unknown, failed: (error: unknown) => void): void {
  try {
    const returned = call();
    // Promise.resolve adopts a thenable through its own `then` (whose getter may throw: a rejection too).
    if (isRecord(returned) || isFn(returned)) Promise.resolve(returned).catch(failed);
  } catch (error) {
    failed(error);
  }
}
