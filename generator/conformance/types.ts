/**
 * @module The data of a conformance run: the checks (one table, each with what it proves), what a run is
 * asked to do, what it records of each exchange, and the report every format prints.
 */

/**
 * Every check, in the order a run performs them, with the sentence the reports and the docs use. Keyed by
 * id: a check added here without a definition in `checks/index.ts` does not compile.
 */
export const CHECKS = {
  'documented-answers': "every answer's status, headers and body are what the version's OpenAPI document describes",
  'write-only-hidden': 'no answer carries a write-only field',
  'round-trip': 'a created resource reads back the same through get and list',
  'read-only-assigned': 'the server assigns every read-only field on create',
  'update-partial': 'an update changes only the fields it sends',
  'replace-complete': 'a replace leaves no field of the old resource behind',
  delete: 'a deleted resource answers 404',
  unique: 'a taken unique value answers 409',
  filters: 'a filtered list answers only matching resources',
  pagination: 'walking every page returns every resource exactly once',
  'pagination-concurrent': 'walking every page while resources are created and deleted returns each one at most once, and every one that stayed',
  'cursor-tampered': 'a cursor the server did not issue answers 400',
  sort: 'each sort key orders every page, ascending and descending, ties broken by the id; the declared default order holds without ?sort=; an undeclared key answers 400',
  'filter-operators':
    'each filter operator (ne, in, gt, gte, lt, lte, and ranges of two) answers exactly the resources that pass it, over random data; an undeclared one answers 400',
  'cursor-mismatch': 'a cursor sent with another sort or other filters than it was issued under answers 400 cursor_mismatch',
  'field-masks': 'a get or list with ?fields= answers only those fields and the id, with their values; a write-only or unknown field answers 400',
  expand:
    'each expandable ref, expanded on create, get and list, equals a GET of the referenced resource in the same version; an undeclared expansion answers 400',
  etag: 'the ETag changes when the resource changes, and not otherwise',
  'if-none-match': 'If-None-Match with the current ETag answers 304',
  'if-match-required': 'a write without If-Match answers 428 where the collection requires it',
  'if-match-update': 'concurrent writes with the same If-Match: exactly one succeeds, the rest answer 412',
  'if-match-delete': 'concurrent deletes with the same If-Match: exactly one succeeds, the rest answer 412',
  transitions: 'each transition moves a resource from its states to its target, and answers 409 from any other state',
  'transitions-concurrent': 'concurrent transitions on one resource end as some sequential order of them would',
  'idempotent-create': 'concurrent creates with one Idempotency-Key make one resource',
  versions: 'a resource created through the oldest version reads correctly through the newest, and back',
} as const satisfies Readonly<Record<string, string>>;

/** A check's id. */
export type CheckId = keyof typeof CHECKS;

/** The check ids, in run order. */
export const CHECK_IDS = Object.keys(CHECKS) as CheckId[];

/** A request as the report shows it (credentials given with `--header` are redacted). */
export interface RequestRecord {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** An answer as the report shows it: status, headers, and the body (parsed JSON, else text). */
export interface AnswerRecord {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One request and what came of it: an answer, or the transport error that stopped it. */
export interface Exchange {
  /** The operation it was (`create`, ..., `:pay`), when a collection's client sent it. */
  readonly operation?: string;
  readonly request: RequestRecord;
  readonly answer: AnswerRecord | null;
  readonly error?: string;
}

/** One way the server broke a check. */
export interface Failure {
  readonly message: string;
  /** `create`, `get`, `list`, `update`, `replace`, `delete`, or a transition as `:pay`. */
  readonly operation: string;
  readonly request?: RequestRecord;
  readonly answer?: AnswerRecord | null;
  /** How many more times the same failure was seen (the first one's request and answer are shown). */
  readonly repeats?: number;
}

/** The verdict of one check on one collection of one version. */
export interface CheckResult {
  readonly check: CheckId;
  /** The version, or `v1 → v3` for the versions check. */
  readonly version: string;
  /** The collection's name in that version. */
  readonly collection: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why a check was skipped. */
  readonly reason?: string;
  readonly failures: readonly Failure[];
}

/** A record the run created and could not delete. */
export interface Leftover {
  readonly collection: string;
  readonly id: string;
  readonly reason: string;
}

/** The outcome of a run. */
export interface ConformanceReport {
  readonly api: string;
  readonly url: string;
  readonly versions: readonly string[];
  readonly concurrency: number;
  readonly results: readonly CheckResult[];
  /** HTTP requests sent (retries after 429 included). */
  readonly requests: number;
  readonly leftovers: readonly Leftover[];
}

/** What a run is asked to do. Times are in milliseconds. */
export interface ConformanceOptions {
  /** The server's base URL (a prefix the API is mounted under included). */
  readonly url: string;
  /** Headers sent with every request, credentials typically (`Authorization: Bearer ...`); redacted in reports. */
  readonly headers?: readonly (readonly [name: string, value: string])[];
  /** The versions to check (default: all), by name. */
  readonly versions?: readonly string[];
  /** The collections to check (default: all but restgen's built-in ones), by any name they have had. */
  readonly only?: readonly string[];
  /** Requests sent at once by the concurrency checks (default 5). */
  readonly concurrency?: number;
  /** The longest wait a 429's Retry-After may ask for before the request is retried (default 60 000). */
  readonly maxWait?: number;
  /** How long one request may take (default 10 000). */
  readonly timeout?: number;
  /** Makes the run's generated values reproducible (default: random). */
  readonly seed?: number;
  /** Waits `ms` (tests inject one that does not). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Defaults of {@link ConformanceOptions}. */
export const DEFAULTS = { concurrency: 5, maxWait: 60_000, timeout: 10_000 } as const;
