/**
 * @module The server runtime package the generated server imports: its name, the version range the generated
 * code is written for, and the contract number it carries in its route tables. The package is published from
 * this repository (`packages/runtime`); a test keeps these facts in step with its `package.json` and source.
 */

import { RUNTIME_CONTRACT } from '@restgen/runtime/contract';

/** What the generated server needs of `@restgen/runtime`. */
export const RUNTIME = {
  name: '@restgen/runtime',
  /** The range `generate` asks the user's project to install. */
  range: '^0.3.0',
  /** The contract of the runtime restgen was built with, written into every generated route table (`contract`). */
  contract: RUNTIME_CONTRACT,
} as const;
