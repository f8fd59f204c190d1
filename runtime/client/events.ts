/**
 * The event stream of a version (`GET /<version>/events`, server-sent events): `for await (const event of
 * client.v2.events.stream({ types, after }))` yields each event in the version's shape, typed by `type`. When
 * the connection ends (the server restarts, a proxy cuts it, the reader fell behind) the stream reconnects by
 * itself with `Last-Event-ID` after the server's `retry:` (with backoff while reconnecting fails), so no event is
 * lost or repeated; `410 stream_expired` (the position is older than the server keeps) and other final errors
 * are thrown. The parser follows the HTML standard's `text/event-stream` rules and holds at most
 * `maxResponseBytes` of one unfinished event.
 * @module
 */
import { GoneError, InvalidResponseError, type ApiError } from "./failures.js";
import type { RequestOptions } from "./options.js";
import { retryDelay } from "./retry.js";
import { sleep } from "./signals.js";
import type { Transport } from "./transport.js";

/** One event of the stream: its id (the position to resume after), `type`, `timestamp` and `data`. */
export type StreamedEvent<E> = E & { readonly id: string };

/** What {@link EventStream.stream} reads. */
export interface StreamParams<T extends string> extends RequestOptions {
  /** Only these types (default: every type the caller may read). */
  types?: readonly T[];
  /** Resume after this id (an event's `id`); default: from now on. */
  after?: string;
  /** The most reconnections in a row that fail before the stream throws (default 10). */
  maxReconnects?: number;
}

/** A version's event stream. */
export interface EventStream<E extends { type: string }> {
  /** The events as they happen, each once, in order; ends only when `signal` aborts (or a final error). */
  stream(
    params?: StreamParams<E["type"]>,
  ): AsyncIterable<StreamedEvent<E>> & AsyncIterator<StreamedEvent<E>>;
}

/** One dispatched block: its event type, data and id, or a `retry:` alone. */
interface Block {
  event: string;
  data: string | null;
  id: string | null;
  retry: number | null;
}

/**
 * Reads `body` block by block (lines end with CR, LF or CRLF; a block ends with an empty line), as the HTML
 * standard parses it: `data` lines joined with LF, `event`, `id` (not with NUL), `retry` (digits only), comment
 * lines ignored. An unfinished block past `max` characters throws.
 */
async function* blocksOf(
  body: ReadableStream<Uint8Array>,
  max: number,
  what: Response,
): AsyncGenerator<Block> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  let first = true;
  let block: Block = { event: "", data: null, id: null, retry: null };
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      pending += decoder.decode(chunk.value, { stream: true });
      if (first && pending.length > 0) {
        // A byte order mark at the start is no part of the first line.
        if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
        first = false;
      }
      let start = 0;
      for (;;) {
        const cr = pending.indexOf("\r", start);
        const lf = pending.indexOf("\n", start);
        const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
        // A CR at the end of what has come may be the first half of a CRLF: wait for the next chunk.
        if (end < 0 || (end === cr && end === pending.length - 1)) break;
        const line = pending.slice(start, end);
        start = end + (end === cr && pending[end + 1] === "\n" ? 2 : 1);
        if (line === "") {
          if (block.data !== null || block.retry !== null || block.id !== null)
            yield block;
          block = { event: "", data: null, id: null, retry: null };
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data")
          block.data = block.data === null ? value : `${block.data}\n${value}`;
        else if (field === "event") block.event = value;
        else if (field === "id" && !value.includes("\0")) block.id = value;
        else if (field === "retry" && /^\d+$/.test(value))
          block.retry = Number(value);
      }
      pending = pending.slice(start);
      if (pending.length + (block.data?.length ?? 0) > max)
        throw new InvalidResponseError(
          `event over maxResponseBytes (${max})`,
          what,
          what.url,
        );
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The events of one connection: each `data` parsed as JSON (`{ type, timestamp, data }`) with the block's id;
 * `position` follows every id the server sends (also on heartbeats), and `retry` its `retry:`.
 */
async function* eventsOf<E>(
  response: Response,
  max: number,
  state: { position: string | undefined; retry: number },
): AsyncGenerator<StreamedEvent<E>> {
  if (response.body === null) return;
  for await (const block of blocksOf(response.body, max, response)) {
    if (block.retry !== null) state.retry = block.retry;
    if (block.id !== null) state.position = block.id;
    if (block.data === null) continue;
    let event: E;
    try {
      event = JSON.parse(block.data) as E;
    } catch {
      throw new InvalidResponseError(
        "an event's data is not JSON",
        response,
        response.url,
      );
    }
    yield { ...event, id: block.id ?? state.position ?? "" };
  }
}

/**
 * The event stream of `version` on transport `t`: a connection at a time, reconnected after each end with
 * the last id seen; a failed reconnection waits by the client's backoff (honouring `Retry-After`), and only a
 * failure that is final (401, 403, 410 `stream_expired`, ...) or `maxReconnects` in a row ends the stream.
 */
export function createEventStream<E extends { type: string }>(
  t: Transport,
  version: string,
): EventStream<E> {
  return {
    stream(params = {}) {
      const { types, after, maxReconnects = 10, ...opts } = params;
      const signals = [opts.signal].filter((s): s is AbortSignal => !!s);
      const state = { position: after, retry: 2e3 };
      const max = opts.maxResponseBytes ?? 10_485_760;
      async function* run(): AsyncGenerator<StreamedEvent<E>> {
        let failures = 0;
        for (;;) {
          // One controller per connection: ending it (the loop left, the caller aborted) closes the body.
          const connection = new AbortController();
          const stop = () => connection.abort(opts.signal?.reason);
          opts.signal?.addEventListener("abort", stop);
          try {
            let response: Response;
            // The wait for the answer's headers is bounded by `timeout`; the body is read for as long as it lasts.
            let timedOut = false;
            const timer = setTimeout(() => {
              timedOut = true;
              connection.abort();
            }, opts.timeout ?? 6e4);
            try {
              ({ response } = await t(
                "GET",
                version,
                "events",
                undefined,
                {
                  ...opts,
                  timeout: Infinity,
                  signal: connection.signal,
                  headers: {
                    ...opts.headers,
                    accept: "text/event-stream",
                    ...(state.position !== undefined && {
                      "last-event-id": state.position,
                    }),
                  },
                },
                types ? { types: types.join(",") } : undefined,
                undefined,
                true,
              ));
              failures = 0;
            } catch (cause) {
              if (opts.signal?.aborted) return;
              const error = cause as ApiError;
              // 410 is final: the events after the position are gone (or the version is). A timeout is retried.
              const wait =
                error instanceof GoneError || ++failures > maxReconnects
                  ? null
                  : timedOut
                    ? 0
                    : typeof error?.status === "number"
                      ? retryDelay(error, failures, opts)
                      : null;
              if (wait === null) throw cause;
              await sleep(Math.max(wait, state.retry), signals);
              continue;
            } finally {
              clearTimeout(timer);
            }
            try {
              yield* eventsOf<E>(response, max, state);
            } catch (cause) {
              // A body that breaks the format is final; a connection that broke is resumed like one that ended.
              if (cause instanceof InvalidResponseError) throw cause;
            }
          } finally {
            connection.abort();
            opts.signal?.removeEventListener("abort", stop);
          }
          if (opts.signal?.aborted) return;
          // The server ended the stream: back after its `retry:`.
          await sleep(state.retry, signals).catch(() => undefined);
          if (opts.signal?.aborted) return;
        }
      }
      return run();
    },
  };
}
