/**
 * @module `@restgen/conformance`: checks a running server (the user's handlers on the user's database) against the
 * contract of a restgen API, over HTTP, and reports each failure with the request and the answer that show it. The
 * contract comes from restgen (`loadContract` of `restgen/contract`); `restgen conformance` is this package's
 * command line.
 *
 * @example
 * import { loadContract } from 'restgen/contract';
 * import { formatText, runConformance, verdictOf } from '@restgen/conformance';
 *
 * const loaded = await loadContract('api.ts');
 * if (!loaded.ok) throw new Error(loaded.message);
 * const outcome = await runConformance(loaded.contract, { url: 'http://127.0.0.1:3000', headers: [['Authorization', 'Bearer dev']] });
 * if (outcome.kind === 'report') console.log(formatText(outcome.report), verdictOf(outcome.report));
 */
export { runConformance, isChecked, collectionNames, type RunOutcome } from './runner.js';
export {
  formatReport,
  formatText,
  formatJson,
  formatJunit,
  printable,
  summaryOf,
  verdictOf,
  FORMATS,
  REPORT_FORMAT_VERSION,
  type Format,
} from './format.js';
export { REAL_CLOCK } from './http.js';
export { KEPT_BODY } from './results.js';
export * from './types.js';
