/**
 * The text of the event stream (the `text/event-stream` format of the HTML standard): one block per event,
 * `id` (the log's sequence), `event` (the type) and one `data` line (the event as a webhook body carries it:
 * `{ type, timestamp, data }` in the reader's version), and the comment lines of heartbeats. Each event is
 * rendered once per version and shared by every reader of that version that takes the same batch.
 */
import type { LoggedEvent } from './event-log.js';
import type { Render } from './webhook-events.js';

/** The opening of a stream: how long a client waits before it reconnects, and where the stream starts. */
export const openingFrame = (retryMs: number, position: number): string => `retry: ${retryMs}\nid: ${position}\n\n`;

/**
 * A heartbeat: a comment, which every reader ignores and every proxy sees as traffic; with `position`, also the
 * `id` a reader resumes after, for when every event since its last one was of a type it does not read.
 */
export const heartbeatFrame = (position: number | null): string => (position === null ? ':\n\n' : `:\nid: ${position}\n\n`);

/** The closing comment of a stream the server ends: why, and that resuming from the last id loses nothing. */
export const closingFrame = (why: string): string => `: ${why}; reconnect with Last-Event-ID to resume\n\n`;

/** Renders a logged event for a version: its frame, or null when the version cannot show it (logged once). */
export type FrameOf = (event: LoggedEvent, version: string) => string | null;

/**
 * The frame renderer over `renderers` (by type, then version). A frame is kept per event object and version, so
 * the readers of one batch share it; events leave with their batch (a WeakMap holds nothing alive).
 */
export function createFrames(renderers: ReadonlyMap<string, ReadonlyMap<string, Render>>, log: { warn(obj: object, msg: string): void }): FrameOf {
  const cache = new WeakMap<LoggedEvent, { data?: unknown; frames: Map<string, string | null> }>();
  return (event, version) => {
    let entry = cache.get(event);
    if (entry === undefined) cache.set(event, (entry = { frames: new Map() }));
    const known = entry.frames.get(version);
    if (known !== undefined) return known;
    const render = renderers.get(event.type)?.get(version);
    let frame: string | null = null;
    if (render !== undefined) {
      entry.data ??= JSON.parse(event.data) as unknown;
      const shown = render(entry.data as Record<string, unknown>);
      if (shown === null) log.warn({ type: event.type, seq: event.seq, version }, `event ${event.type} does not fit the ${version} schema; not streamed`);
      else {
        const body = JSON.stringify({ type: event.type, timestamp: new Date(event.time).toISOString(), data: shown });
        frame = `id: ${event.seq}\nevent: ${event.type}\ndata: ${body}\n\n`;
      }
    }
    entry.frames.set(version, frame);
    return frame;
  };
}
