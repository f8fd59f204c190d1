/**
 * @module The verdicts of a run as they come in: a check is marked when it starts (so one that saw nothing
 * wrong passes), skipped with a reason, or failed by each failure recorded against it. Kept in the order the
 * checks ran.
 */
import type { AnswerRecord, CheckId, CheckResult, Failure } from './types.js';

/** The largest answer body a failure keeps as it came; a larger one is kept shortened, so failures hold little memory. */
export const KEPT_BODY = 64 * 1024;
/** How much of a larger body is kept. */
const EXCERPT = 1024;

/** `answer` as a failure keeps it: a body over {@link KEPT_BODY} bytes becomes a text of its start. */
export function kept(answer: AnswerRecord | null | undefined): AnswerRecord | null | undefined {
  if (!answer || answer.size === undefined || answer.size <= KEPT_BODY) return answer;
  let text: string;
  try {
    text = typeof answer.body === 'string' ? answer.body.slice(0, EXCERPT) : (JSON.stringify(answer.body) ?? '').slice(0, EXCERPT);
  } catch {
    // Nested too deeply to print.
    text = '';
  }
  return { ...answer, body: `${text}... (${answer.size} bytes in all; the report keeps the first ${EXCERPT} characters)` };
}

interface Entry {
  check: CheckId;
  version: string;
  collection: string;
  reason?: string;
  failures: Failure[];
}

/** Collects check results. */
export class Results {
  readonly #entries = new Map<string, Entry>();

  #entry(version: string, collection: string, check: CheckId): Entry {
    const key = `${version}\0${collection}\0${check}`;
    let entry = this.#entries.get(key);
    if (!entry) this.#entries.set(key, (entry = { check, version, collection, failures: [] }));
    return entry;
  }

  /** The check ran (passes unless a failure is recorded). */
  ran(version: string, collection: string, check: CheckId): void {
    this.#entry(version, collection, check);
  }

  /** The check did not run, and why. */
  skip(version: string, collection: string, check: CheckId, reason: string): void {
    this.#entry(version, collection, check).reason = reason;
  }

  /** The server broke the check. The same failure again (operation and message) only counts its repeats. */
  fail(version: string, collection: string, check: CheckId, failure: Failure): void {
    const failures = this.#entry(version, collection, check).failures;
    const index = failures.findIndex((f) => f.operation === failure.operation && f.message === failure.message);
    const seen = failures[index];
    if (seen) failures[index] = { ...seen, repeats: (seen.repeats ?? 0) + 1 };
    else failures.push(failure.answer ? { ...failure, answer: kept(failure.answer) } : failure);
  }

  /** Every result so far. A check with failures failed even if it was also skipped later. */
  list(): CheckResult[] {
    return [...this.#entries.values()].map((e) => ({
      check: e.check,
      version: e.version,
      collection: e.collection,
      status: e.failures.length > 0 ? 'failed' : e.reason !== undefined ? 'skipped' : 'passed',
      ...(e.reason !== undefined && e.failures.length === 0 ? { reason: e.reason } : {}),
      failures: e.failures,
    }));
  }
}
