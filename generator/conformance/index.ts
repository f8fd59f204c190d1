/**
 * @module `restgen conformance`'s engine: checks a running server (the user's handlers on the user's database)
 * against the contract its API module declares, over HTTP, and reports each failure with the request and the
 * answer that show it.
 */
export { runConformance, isChecked, collectionNames, type RunOutcome } from './runner.ts';
export { formatReport, formatText, formatJson, formatJunit, printable, summaryOf, verdictOf, FORMATS, REPORT_FORMAT_VERSION, type Format } from './format.ts';
export { REAL_CLOCK } from './http.ts';
export { explain, type Move } from './checks/explain.ts';
export * from './types.ts';
