/**
 * @module A reader of a server's event stream for tests, over node:http, parsed by `eventsource-parser` (an
 * implementation of the HTML standard's parsing nobody here wrote): the status and headers, every event with its
 * id, type and parsed data, the comments (heartbeats), the `retry` and the last id, and a way to wait for events
 * and to drop the connection.
 */
import { createParser } from 'eventsource-parser';
import { get, type IncomingMessage } from 'node:http';

/** One event as read. */
export interface ReadEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** An open stream (or the answer that refused to open one). */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The problem body of a refusal (status other than 200). */
  readonly problem: Record<string, unknown> | null;
  readonly events: ReadEvent[];
  readonly comments: string[];
  /** The last `id` field read (of an event, or an id-only block), as EventSource's `lastEventId` would be. */
  lastId: string | undefined;
  retry: number | undefined;
  /** Resolves when the server ended the stream (or the reader dropped it). */
  readonly ended: Promise<void>;
  /** Resolves once `count` events have been read (rejects when the stream ends before). */
  waitFor(count: number, ms?: number): Promise<ReadEvent[]>;
  /** Drops the connection. */
  drop(): void;
}

/** Options of {@link openStream}. */
export interface OpenOptions {
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Called for each event as it is read (a test that drops the connection at an exact event does it here). */
  readonly onEvent?: (event: ReadEvent, stream: OpenStream) => void;
}

/** Opens `url` (a full URL) as an event stream. */
export async function openStream(url: string, options: OpenOptions = {}): Promise<OpenStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  const token = options.token === undefined ? 'admin' : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  // node:http with a connection of its own (no pool): a dropped stream closes its socket and nothing else is left
  // open (fetch's pool may open a spare connection that keeps the server's close waiting).
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(url, { headers, agent: false }, resolve);
    request.once('error', reject);
  });
  const status = response.statusCode ?? 0;
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
  const text = async (): Promise<string> => {
    let all = '';
    for await (const chunk of response) all += String(chunk);
    return all;
  };
  const events: ReadEvent[] = [];
  const comments: string[] = [];
  const waiters: { count: number; resolve: (e: ReadEvent[]) => void; reject: (e: Error) => void }[] = [];
  let done = false;
  // After drop() nothing more is taken, even what arrived in the same chunk (as an EventSource's close does).
  let dropped = false;
  const settle = () => {
    for (const w of [...waiters])
      if (events.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(events.slice(0, w.count));
      } else if (done) {
        waiters.splice(waiters.indexOf(w), 1);
        w.reject(new Error(`the stream ended after ${events.length} events, before ${w.count}`));
      }
  };
  const stream: OpenStream = {
    status,
    headers: responseHeaders,
    problem: status === 200 ? null : ((JSON.parse((await text()) || 'null') ?? {}) as Record<string, unknown>),
    events,
    comments,
    lastId: undefined,
    retry: undefined,
    ended: Promise.resolve(),
    waitFor: (count, ms = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${events.length} of ${count} events within ${ms} ms`)), ms);
        waiters.push({
          count,
          resolve: (e) => (clearTimeout(timer), resolve(e)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        settle();
      }),
    drop: () => {
      dropped = true;
      response.destroy();
    },
  };
  if (status !== 200) return stream;
  const parser = createParser({
    onEvent: (message) => {
      const event: ReadEvent = { id: message.id, event: message.event, data: JSON.parse(message.data) as ReadEvent['data'] };
      events.push(event);
      options.onEvent?.(event, stream);
      settle();
    },
    onComment: (comment) => comments.push(comment),
    onRetry: (ms) => (stream.retry = ms),
  });
  // eventsource-parser reports ids with their events only; the HTML standard also takes the id of a block without
  // data (the opening, a heartbeat) as the last event id: followed here, line by line.
  let lines = '';
  let pendingId: string | undefined;
  const trackIds = (text: string) => {
    lines += text;
    let cut = lines.indexOf('\n');
    while (cut >= 0) {
      const line = lines.slice(0, cut);
      lines = lines.slice(cut + 1);
      if (line === '') {
        if (pendingId !== undefined) stream.lastId = pendingId;
        pendingId = undefined;
      } else if (line.startsWith('id:')) pendingId = line.slice(line.startsWith('id: ') ? 4 : 3);
      cut = lines.indexOf('\n');
    }
  };
  const decoder = new TextDecoder();
  let pending = '';
  const reading = (async () => {
    try {
      for await (const chunk of response as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        // Block by block (a block ends with an empty line), so ids and events stop together at a drop.
        let cut = pending.indexOf('\n\n');
        while (cut >= 0 && !dropped) {
          const block = pending.slice(0, cut + 2);
          pending = pending.slice(cut + 2);
          trackIds(block);
          parser.feed(block);
          cut = pending.indexOf('\n\n');
        }
        if (dropped) break;
      }
    } catch {
      // Dropped by the reader (abort) or cut by the server: the stream has ended either way.
    } finally {
      done = true;
      settle();
    }
  })();
  (stream as { ended: Promise<void> }).ended = reading;
  return stream;
}
