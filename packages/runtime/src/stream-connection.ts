/**
 * One reader's connection to the event stream. It starts at a position in the log, reads on from there by
 * itself (page by page, waiting while its connection's buffer is full) until it has caught up, then takes the
 * hub's batches. What it writes waits in its body stream and the socket: when a batch finds more than
 * `bufferLimit` bytes waiting there (the reader reads slower than events come), or a heartbeat does, the stream
 * is closed. Everything written before is delivered and ends on a whole event, so the reader resumes from the
 * last id it got and loses nothing; the server holds at most `bufferLimit` bytes (plus one batch) per reader.
 */
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import type { LoggedEvent, LogPage } from './event-log.js';
import { closingFrame, heartbeatFrame, openingFrame, type FrameOf } from './stream-frames.js';
import type { HubReader, StreamHub } from './stream-hub.js';

/** The timing and bounds of every connection (all times in ms). */
export interface ConnectionLimits {
  /** The `retry:` a client waits before it reconnects. */
  readonly retry: number;
  /** The interval of heartbeat comments. */
  readonly heartbeat: number;
  /** The most bytes waiting to be sent before the stream is closed. */
  readonly bufferLimit: number;
  /** The most events one read of the log takes. */
  readonly batch: number;
}

/** What a connection reads and for whom. */
export interface ConnectionParts {
  readonly hub: StreamHub;
  readonly frames: FrameOf;
  readonly version: string;
  /** Whether this reader gets an event of `type` (its filter, and what it may read). */
  readonly wants: (type: string) => boolean;
  readonly limits: ConnectionLimits;
  readonly log: { warn(obj: object, msg: string): void };
  /** Called once when the connection is over (closed by either side). */
  readonly done: () => void;
}

/** An open connection. */
export interface StreamConnection {
  /** Ends the stream with a closing comment saying `why` (the reader resumes from its last id). */
  close(why: string): void;
}

/** Bytes the body stream holds before a reader's own reads wait for the connection to take them. */
const HIGH_WATER = 65_536;

/**
 * Answers `reply` with the stream from `position`, `first` being the page the route read there already (it
 * knew from it that the position has not expired).
 */
export function openConnection(reply: FastifyReply, parts: ConnectionParts, position: number, first: LogPage | null): StreamConnection {
  const { hub, frames, version, wants, limits } = parts;
  let wanted: (() => void) | null = null;
  const body = new Readable({
    highWaterMark: HIGH_WATER,
    read: () => {
      const resume = wanted;
      wanted = null;
      resume?.();
    },
  });
  let closed = false;
  let pumping = false;
  /** The last id the reader was sent (an event's, or a heartbeat's). */
  let sent = position;
  const buffered = () => body.readableLength + reply.raw.writableLength;

  /** Writes the events after the reader's position that it wants; false when the body stream is full. */
  const write = (events: readonly LoggedEvent[]): boolean => {
    let room = true;
    for (const e of events) {
      if (e.seq <= reader.position) continue;
      reader.position = e.seq;
      if (!wants(e.type)) continue;
      const frame = frames(e, version);
      if (frame === null) continue;
      room = body.push(frame);
      sent = e.seq;
    }
    return room;
  };

  const reader: HubReader = {
    position,
    take: (events) => {
      if (closed) return;
      write(events);
      if (buffered() > limits.bufferLimit) close('the reader fell behind by more than the buffer limit');
    },
    lag: () => void pump(),
  };

  /** Reads the log from the reader's position until it has caught up, then joins the hub. */
  const pump = async (): Promise<void> => {
    if (pumping || closed) return;
    pumping = true;
    try {
      for (;;) {
        const page = first ?? (await hub.log.read(reader.position, limits.batch));
        first = null;
        if (closed) return;
        if (page.expired) return close('events after this position were dropped from the log');
        const room = write(page.events);
        // A whole page: more to read. Waits for the connection to take what is written first.
        if (!room) await new Promise<void>((resolve) => (wanted = resolve));
        if (closed) return;
        if (page.events.length < limits.batch && hub.join(reader)) return;
      }
    } catch (error) {
      parts.log.warn({ err: error }, 'the event stream could not read the event log; the reader reconnects');
      close('the event log could not be read');
    } finally {
      pumping = false;
    }
  };

  const beat = setInterval(() => {
    if (closed) return;
    if (buffered() > limits.bufferLimit) return close('the reader fell behind by more than the buffer limit');
    // Events of other types went by: the id moves on with them, so a reconnect does not read them again.
    const moved = reader.position > sent && !pumping ? reader.position : null;
    if (moved !== null) sent = moved;
    body.push(heartbeatFrame(moved));
  }, limits.heartbeat);
  beat.unref();

  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    closed = true;
    clearInterval(beat);
    hub.leave(reader);
    wanted?.();
    parts.done();
  };

  const close = (why: string): void => {
    if (closed) return;
    closed = true;
    hub.leave(reader);
    body.push(closingFrame(why));
    body.push(null);
    // A reader that takes nothing more is cut off rather than holding its buffer for ever.
    const cut = setTimeout(() => reply.raw.destroy(), 2 * limits.heartbeat);
    cut.unref();
    reply.raw.once('close', () => clearTimeout(cut));
    finish();
  };

  // The reader went away (or the stream ended): stop at once.
  reply.raw.once('close', () => {
    if (!closed) body.destroy();
    finish();
  });

  reply.code(200).header('content-type', 'text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
  body.push(openingFrame(limits.retry, position));
  void reply.send(body);
  void pump();
  return { close };
}
