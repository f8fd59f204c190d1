/**
 * @module Runs one check and turns how it ended into its result: a stop (its failure is recorded already), a
 * skip or a value the run cannot make (skipped, with the reason), or an unexpected error (a failure saying the
 * check could not finish, so one broken answer does not end the whole run).
 */
import type { Session } from './session.js';
import { Skipped, Stopped } from './context.js';
import type { CheckId } from './types.js';
import { NoValue } from './values.js';

/** Runs `body` as check `check`, reported under `label`. */
export async function guarded(
  session: Session,
  label: { readonly version: string; readonly collection: string },
  check: CheckId,
  body: () => Promise<void>,
): Promise<void> {
  session.results.ran(label.version, label.collection, check);
  try {
    await body();
  } catch (error) {
    if (error instanceof Stopped) return;
    if (error instanceof Skipped || error instanceof NoValue) return session.results.skip(label.version, label.collection, check, error.message);
    const message = error instanceof Error ? error.message : String(error);
    session.results.fail(label.version, label.collection, check, { operation: '-', message: `the check could not finish: ${message}` });
  }
}
