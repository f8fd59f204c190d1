/**
 * @module The data of a conformance run: the checks (one table, each with what it proves), what a run is
 * asked to do, what it records of each exchange, and the report every format prints.
 */

/** The format of restgen's contract (`restgen/contract`) this package reads; restgen refuses a package that reads another. */
export const CONTRACT_FORMAT = 1;

/**
 * The answer header by which `restgen serve` names its stand-in migration hooks (`<version>.<collection>.<field>`,
 * comma-separated): the values of those fields in the versions before each hook's are serve's guesses, not a
 * handler's, and a run does not compare them (restgen's serve sends the same name; a test keeps them equal).
 */
export const STAND_IN_HEADER = 'restgen-stand-in-hooks';

/**
 * Every check, in the order a run performs them, with the sentence the reports and the docs use. Keyed by
 * id: a check added here without a definition in `checks/index.ts` does not compile.
 */
export const CHECKS = {
  'documented-answers': "every answer's status, headers and body are what the version's OpenAPI document describes",
  'write-only-hidden': 'no answer carries a write-only field',
  'declared-fields': 'every successful answer carries only the fields its version declares, at every depth',
  'round-trip': 'a created resource reads back the same through get and list',
  'read-only-assigned': 'the server assigns every read-only field on create',
  'update-partial': 'an update changes only the fields it sends',
  'replace-complete': 'a replace leaves no field of the old resource behind',
  bounds: "a value at each bound the document declares for a field is accepted, stored and read back as sent",
  delete: 'a deleted resource answers 404',
  unique: 'a taken unique value answers 409',
  filters: 'a filtered list answers only matching resources',
  pagination: 'walking every page returns every resource exactly once',
  'pagination-concurrent': 'walking every page while resources are created and deleted returns each one at most once, and every one that stayed',
  'cursor-tampered': 'a cursor the server did not issue answers 400',
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
  /** The body's size in bytes, as it came (a report keeps a large body shortened). */
  readonly size?: number;
}

/**
 * Why a request has no (usable) answer: it took longer than the bound (`timeout`), its answer passed the size cap
 * (`oversize`), the connection failed (`connection`), or the run's deadline passed before or while it was sent
 * (`deadline`).
 */
export type TransportProblem = 'timeout' | 'oversize' | 'connection' | 'deadline';

/** One request and what came of it: an answer, or the transport problem that stopped it. */
export interface Exchange {
  /** The operation it was (`create`, ..., `:pay`), when a collection's client sent it. */
  readonly operation?: string;
  readonly request: RequestRecord;
  readonly answer: AnswerRecord | null;
  readonly error?: string;
  /** Why there is no answer (set exactly when `answer` is null). */
  readonly problem?: TransportProblem;
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

/**
 * Why a run could not complete, by kind: requests without a usable answer (timed out, an answer over the size
 * cap, a failed connection), requests still answered 429 when the waiting allowed was spent, and the deadline.
 */
export type IncompleteReason = 'timeout' | 'oversize' | 'connection' | 'rate-limited' | 'deadline';

/** One reason a run could not complete: how many requests it hit, and a sentence saying so and what to change. */
export interface Incomplete {
  readonly reason: IncompleteReason;
  readonly count: number;
  readonly message: string;
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
  /** Why the run could not complete; empty when it did (its verdicts then cover every check that applies). */
  readonly incomplete: readonly Incomplete[];
  /**
   * The stand-in migration hooks the server said it runs (`restgen serve`, {@link STAND_IN_HEADER}); the fields they
   * convert were not compared in the versions before them. Empty against a server of your own.
   */
  readonly standIns: readonly string[];
}

/** How a run waits and keeps time; tests inject one that moves on without waiting. Times in milliseconds. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/**
 * The bounds of a run: each with its default, the command-line option that sets it, and what it bounds. Every
 * request, every answer and the whole run are bounded, so a server that trickles, floods or rate-limits without
 * end cannot hold a run (or its memory) forever. The reference page is generated from this table.
 */
export const BOUNDS = {
  timeout: { default: 10_000, unit: 'ms', option: '--timeout <seconds>', bounds: 'one request, from sending it to the last byte of its answer' },
  maxBody: {
    default: 16 * 1024 * 1024,
    unit: 'bytes',
    option: '--max-body <MiB>',
    bounds: 'the body of one answer; the run stops reading a larger one and reports it',
  },
  maxWait: { default: 60_000, unit: 'ms', option: '--max-wait <seconds>', bounds: "the wait one 429's Retry-After may ask for before the request is retried" },
  maxTotalWait: { default: 600_000, unit: 'ms', option: '--max-total-wait <seconds>', bounds: 'all the waiting on 429 answers of a run, together' },
  deadline: {
    default: 1_800_000,
    unit: 'ms',
    option: '--deadline <seconds>',
    bounds: 'the checks of a run; a check the deadline interrupts, and the checks after it, do not run',
  },
  cleanup: {
    default: 60_000,
    unit: 'ms',
    option: null,
    bounds: 'deleting the records a run made, once the deadline has passed',
  },
} as const satisfies Readonly<
  Record<string, { readonly default: number; readonly unit: 'ms' | 'bytes'; readonly option: string | null; readonly bounds: string }>
>;

/** Attempts of one request that answers 429, the first included. */
export const ATTEMPTS = 6;

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
  /** All the waiting on 429 answers of the run together (default 600 000); a 429 past it is not waited out. */
  readonly maxTotalWait?: number;
  /** How long one request may take, from sending it to the last byte of its answer (default 10 000). */
  readonly timeout?: number;
  /** The largest answer body read, in bytes (default 16 MiB); a larger one is reported, and not read on. */
  readonly maxBody?: number;
  /** How long the checks may take together (default 1 800 000); the cleanup after it gets at most a minute more. */
  readonly deadline?: number;
  /** Makes the run's generated values reproducible (default: random). */
  readonly seed?: number;
  /** The clock the run waits and keeps time with (tests inject one that does not wait). */
  readonly clock?: Clock;
}

/** Defaults of {@link ConformanceOptions}. */
export const DEFAULTS = {
  concurrency: 5,
  maxWait: BOUNDS.maxWait.default,
  maxTotalWait: BOUNDS.maxTotalWait.default,
  timeout: BOUNDS.timeout.default,
  maxBody: BOUNDS.maxBody.default,
  deadline: BOUNDS.deadline.default,
} as const;

/** The exit code of `restgen conformance` for each way a run can end, with what it means (the reference's table). */
export const EXIT_CODES = {
  passed: { code: 0, means: 'every check that ran holds, and the run completed (skipped checks and records left behind do not count)' },
  failed: { code: 1, means: 'a check failed: the server answered, and broke the contract' },
  usage: { code: 2, means: 'a usage error: a missing or malformed option, an unknown version or collection, an API module with errors' },
  incomplete: {
    code: 3,
    means:
      'the run could not complete: the server could not be reached, a request got no complete answer (timeout, answer over the size cap, broken connection), 429 answers outlasted the waiting allowed, or the deadline passed; also when a check failed besides',
  },
} as const satisfies Readonly<Record<string, { readonly code: number; readonly means: string }>>;

/** How a run ended, as its exit code names it. */
export type Verdict = Exclude<keyof typeof EXIT_CODES, 'usage'>;
