/**
 * @module The shape of a check that runs on one collection of one version.
 */
import type { OperationName } from 'restgen/contract';
import type { CheckContext } from '../context.js';

/** A check on one collection of one version. */
export interface CheckDefinition {
  /** The operations it needs in that version; without one of them it does not apply (and has no result). */
  readonly needs: readonly OperationName[];
  /** Why the check does not apply to the collection (it then has no result), or undefined when it does. */
  applies?(ctx: CheckContext): string | undefined;
  /** Runs it: failures are recorded through `ctx`; `ctx.stop` ends it early, `ctx.skip` skips it. */
  run(ctx: CheckContext): Promise<void>;
}
