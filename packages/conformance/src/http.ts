/**
 * @module The run's HTTP client: sends one request to the server under test with the run's headers, waits out
 * a 429 as its `Retry-After` asks (within the run's bounds), and records request and answer for the report, the
 * credentials redacted. Every request is bounded as a whole (not only while idle: a server that trickles its
 * answer a byte at a time is cut off too), every answer body by a size cap (read as it streams in, so a huge
 * answer never sits in memory), and the run by its deadline. Node's `http` with a keep-alive agent: a run sends a
 * thousand small requests, and `fetch` costs several times the CPU per request.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ATTEMPTS, type AnswerRecord, type Clock, type Exchange, type RequestRecord, type TransportProblem } from './types.js';

/** A request, relative to the base URL. */
export interface HttpRequest {
  readonly method: string;
  /** The path after the base URL, starting with `/`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sent as `application/json`). */
  readonly body?: unknown;
}

/** How many requests ended without a usable answer, by problem, and how many stayed 429 past the waiting allowed. */
export type ProblemCounts = Readonly<Record<Exclude<TransportProblem, 'deadline'> | 'rate-limited', number>>;

/** Sends requests and counts them. */
export interface Http {
  send(request: HttpRequest): Promise<Exchange>;
  /** Requests sent so far, retries included. */
  readonly sent: number;
  /** Requests that ended without a usable answer, or rate-limited past the waiting allowed. */
  readonly problems: ProblemCounts;
  /** Milliseconds waited on 429 answers so far. */
  readonly waited: number;
  /** Whether the deadline has passed: requests are no longer sent. */
  readonly expired: boolean;
  /** Moves the deadline (the cleanup after it gets a grace of its own). */
  extend(until: number): void;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** How the client behaves. Times are in ms. */
export interface HttpOptions {
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly maxWait: number;
  readonly maxTotalWait: number;
  readonly timeout: number;
  readonly maxBody: number;
  /** When requests stop being sent (on `clock`). */
  readonly deadline: number;
  readonly clock: Clock;
}

/** Answer headers a report shows (the rest are noise for a reader). */
const SHOWN = ['content-type', 'etag', 'location', 'retry-after', 'idempotent-replayed', 'deprecation', 'sunset', 'www-authenticate', 'allow'];

/** The wait a 429 asks for, in ms: its `Retry-After` (seconds or an HTTP date), else a doubling backoff. */
export function retryDelay(retryAfter: string | null, attempt: number, now: number): number {
  if (retryAfter !== null) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return 1000 * 2 ** attempt;
}

/** A size as a report says it: `16 MiB`, `512 KiB`, `300 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** A request that ended without an answer, and why. */
class Unanswered extends Error {
  constructor(
    readonly problem: TransportProblem,
    message: string,
  ) {
    super(message);
  }
}

/** What one exchange needs besides the request: the agent and its bounds. */
interface Limits {
  readonly agent: HttpAgent;
  /** Milliseconds the whole exchange may take, and what it is when it runs out. */
  readonly within: number;
  readonly ending: { readonly problem: TransportProblem; readonly message: string };
  readonly maxBody: number;
  readonly clock: Clock;
}

/** Sends one request; the answer's status, headers and body text, or an {@link Unanswered}. */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  limits: Limits,
): Promise<{ status: number; headers: Record<string, string>; text: string; size: number }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let done = false;
    let cancel = (): void => {};
    const finish = (error: Unanswered | null, value?: { status: number; headers: Record<string, string>; text: string; size: number }) => {
      if (done) return;
      done = true;
      cancel();
      if (error) {
        req.destroy();
        reject(error);
      } else resolve(value!);
    };
    const req = send(
      url,
      { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent: limits.agent },
      (res) => {
        const declared = Number(res.headers['content-length']);
        const tooLarge = () => new Unanswered('oversize', `the answer's body is larger than ${sizeText(limits.maxBody)} (the cap; --max-body)`);
        if (Number.isFinite(declared) && declared > limits.maxBody) return finish(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Past the cap nothing more is kept: the connection is closed, and the chunks so far are dropped.
          if (size > limits.maxBody) return finish(tooLarge());
          chunks.push(chunk);
        });
        res.on('end', () => finish(null, { status: res.statusCode ?? 0, headers: headersOf(res), text: Buffer.concat(chunks).toString('utf8'), size }));
        res.on('error', (error) => finish(new Unanswered('connection', error.message)));
        res.on('close', () => {
          if (!res.complete) finish(new Unanswered('connection', 'the server closed the connection before the answer was complete'));
        });
      },
    );
    // The whole exchange is bounded, not the time between two bytes: a trickling answer is cut off too.
    cancel = limits.clock.after(limits.within, () => finish(new Unanswered(limits.ending.problem, limits.ending.message)));
    req.on('error', (error: Error & { code?: string }) => finish(new Unanswered('connection', error.message || error.code || String(error))));
    req.end(body);
  });
}

function bodyOf(text: string, type: string | null): unknown {
  if (text === '') return undefined;
  if (type !== null && /\bjson\b/i.test(type))
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON after all: the documented-answers check reports the text as it came.
      return text;
    }
  return text;
}

/** The run's HTTP client. */
export function createHttp(options: HttpOptions): Http {
  const base = options.url.replace(/\/+$/, '');
  const secret = new Set(options.headers.map(([name]) => name.toLowerCase()));
  const fixed = Object.fromEntries(options.headers.map(([n, v]) => [n.toLowerCase(), v]));
  const agent = base.startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const { clock } = options;
  let deadline = options.deadline;
  let sent = 0;
  let waited = 0;
  const problems = { timeout: 0, oversize: 0, connection: 0, 'rate-limited': 0 };

  const once = async (request: HttpRequest): Promise<{ record: RequestRecord; answer: AnswerRecord | null; error?: string; problem?: TransportProblem }> => {
    const query = request.query && Object.keys(request.query).length > 0 ? `?${new URLSearchParams(request.query).toString()}` : '';
    const url = `${base}${request.path}${query}`;
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...fixed };
    for (const [n, v] of Object.entries(request.headers ?? {})) headers[n.toLowerCase()] = v;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const shown = Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, secret.has(n) ? '<redacted>' : v]));
    const record: RequestRecord = { method: request.method, url, headers: shown, ...(request.body !== undefined ? { body: request.body } : {}) };
    const left = deadline - clock.now();
    if (left <= 0) return { record, answer: null, error: 'not sent: the run deadline has passed', problem: 'deadline' };
    sent++;
    // A request that would outlast the deadline ends with it.
    const limits: Limits =
      left < options.timeout
        ? {
            agent,
            within: left,
            ending: { problem: 'deadline', message: 'the run deadline passed before the answer was complete' },
            maxBody: options.maxBody,
            clock,
          }
        : {
            agent,
            within: options.timeout,
            ending: { problem: 'timeout', message: `no complete answer within ${options.timeout / 1000} s (--timeout)` },
            maxBody: options.maxBody,
            clock,
          };
    try {
      const response = await exchange(new URL(url), request.method, headers, request.body !== undefined ? JSON.stringify(request.body) : undefined, limits);
      const answer: AnswerRecord = {
        status: response.status,
        headers: response.headers,
        ...(response.text !== '' ? { body: bodyOf(response.text, response.headers['content-type'] ?? null), size: response.size } : {}),
      };
      return { record, answer };
    } catch (error) {
      if (error instanceof Unanswered) {
        if (error.problem !== 'deadline') problems[error.problem]++;
        return { record, answer: null, error: error.message, problem: error.problem };
      }
      throw error;
    }
  };

  return {
    get sent() {
      return sent;
    },
    get problems() {
      return { ...problems };
    },
    get waited() {
      return waited;
    },
    get expired() {
      return clock.now() >= deadline;
    },
    extend(until) {
      deadline = until;
    },
    close: () => agent.destroy(),
    async send(request) {
      for (let attempt = 0; ; attempt++) {
        const { record, answer, error, problem } = await once(request);
        if (answer === null) return { request: record, answer: null, error: error ?? 'no answer', problem: problem ?? 'connection' };
        if (answer.status !== 429) return { request: record, answer };
        const wait = retryDelay(answer.headers['retry-after'] ?? null, attempt, clock.now());
        // A wait past any bound is not waited out: the 429 is the answer the check sees.
        const giveUp = attempt === ATTEMPTS - 1 || wait > options.maxWait || waited + wait > options.maxTotalWait || clock.now() + wait >= deadline;
        if (giveUp) {
          problems['rate-limited']++;
          return { request: record, answer };
        }
        waited += wait;
        await clock.sleep(wait);
      }
    },
  };
}

/** The answer headers a report shows, in a fixed order. */
export function shownHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(SHOWN.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]!]));
}

/** The clock of a real run: `Date.now` and timers. */
export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
