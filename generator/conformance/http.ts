/**
 * @module The run's HTTP client: sends one request to the server under test with the run's headers, waits out
 * a 429 as its `Retry-After` asks (up to the run's bound), and records request and answer for the report, the
 * credentials redacted. Node's `http` with a keep-alive agent: a run sends a thousand small requests, and
 * `fetch` costs several times the CPU per request.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AnswerRecord, Exchange, RequestRecord } from './types.ts';

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

/** Sends requests and counts them. */
export interface Http {
  send(request: HttpRequest): Promise<Exchange>;
  /** Requests sent so far, retries included. */
  readonly sent: number;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** How the client behaves. Times are in ms. */
export interface HttpOptions {
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly maxWait: number;
  readonly timeout: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** Attempts of one request that answers 429, the first included. */
const ATTEMPTS = 6;
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

function headersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Sends one request; the answer's status, headers and body text. */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: HttpAgent,
  timeout: number,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: headersOf(res), text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeout, () => req.destroy(new Error(`no answer within ${timeout} ms`)));
    req.on('error', reject);
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
  let sent = 0;

  const once = async (request: HttpRequest): Promise<{ record: RequestRecord; answer: AnswerRecord | null; error?: string }> => {
    const query = request.query && Object.keys(request.query).length > 0 ? `?${new URLSearchParams(request.query).toString()}` : '';
    const url = `${base}${request.path}${query}`;
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...fixed };
    for (const [n, v] of Object.entries(request.headers ?? {})) headers[n.toLowerCase()] = v;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const shown = Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, secret.has(n) ? '<redacted>' : v]));
    const record: RequestRecord = { method: request.method, url, headers: shown, ...(request.body !== undefined ? { body: request.body } : {}) };
    sent++;
    try {
      const response = await exchange(
        new URL(url),
        request.method,
        headers,
        request.body !== undefined ? JSON.stringify(request.body) : undefined,
        agent,
        options.timeout,
      );
      const answer: AnswerRecord = {
        status: response.status,
        headers: response.headers,
        ...(response.text !== '' ? { body: bodyOf(response.text, response.headers['content-type'] ?? null) } : {}),
      };
      return { record, answer };
    } catch (error) {
      const message = error instanceof Error ? error.message || (error as { code?: string }).code || String(error) : String(error);
      return { record, answer: null, error: message };
    }
  };

  return {
    get sent() {
      return sent;
    },
    close: () => agent.destroy(),
    async send(request) {
      for (let attempt = 0; ; attempt++) {
        const { record, answer, error } = await once(request);
        if (answer === null) return { request: record, answer: null, error: error ?? 'no answer' };
        if (answer.status !== 429 || attempt === ATTEMPTS - 1) return { request: record, answer };
        const wait = retryDelay(answer.headers['retry-after'] ?? null, attempt, Date.now());
        if (wait > options.maxWait) return { request: record, answer };
        await options.sleep(wait);
      }
    },
  };
}

/** The answer headers a report shows, in a fixed order. */
export function shownHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(SHOWN.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]!]));
}
