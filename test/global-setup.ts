/**
 * vitest's global setup (named in vitest.config.ts): runs once per `vitest run`, before any test file, in the main
 * process. It generates the examples the tests share (see `helpers/shared-output.ts`), so no test file generates
 * them again.
 */
import { generateShared } from './helpers/shared-output.ts';

export default async function setup(): Promise<void> {
  await generateShared();
}
