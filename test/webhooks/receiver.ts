/**
 * @module A real webhook receiver for tests: a node:http server on 127.0.0.1 that records every request
 * (headers, raw body, its place in the order of arrival) and answers as the test tells it, per attempt.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Its place among everything the receiver saw (requests and closed hanging requests), from 1. */
  readonly seq: number;
}

/** A hanging request the sender gave up on (it closed the connection). */
export interface Abandoned {
  readonly path: string;
  readonly seq: number;
}

/**
 * How to answer the n-th request (0-based) at a path: a status (with headers, after `delay` ms), `hang` (never
 * answer), or `trickle` (send the status line and then one byte of a header every 100 ms, never ending the headers).
 */
export type Reply = { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly delay?: number } | 'hang' | 'trickle';

/** A running receiver. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Hanging requests whose connection the sender closed, in order. */
  readonly abandoned: Abandoned[];
  /** Requests at one path. */
  at(path: string): Received[];
  /** The answer to each request at `path` (by its index there); default 204. */
  answer(path: string, reply: (n: number) => Reply): void;
  /** Ends the hanging requests at `path` by closing their connections (as if the receiver crashed). */
  release(path: string): void;
  /** Resolves when `count` requests arrived at `path` (or rejects after `ms`). */
  waitFor(path: string, count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a receiver on a random loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const abandoned: Abandoned[] = [];
  let seq = 0;
  const replies = new Map<string, (n: number) => Reply>();
  const hanging: { path: string; res: ServerResponse }[] = [];
  let closing = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = received.filter((r) => r.path === path).length;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), seq: ++seq });
      const reply = replies.get(path)?.(n) ?? { status: 204 };
      if (reply === 'hang' || reply === 'trickle') {
        hanging.push({ path, res });
        let timer: ReturnType<typeof setInterval> | undefined;
        if (reply === 'trickle') {
          // The raw socket: Node's own response would send the headers whole.
          res.socket?.write('HTTP/1.1 200 OK\r\nx-slow: ');
          timer = setInterval(() => res.socket?.write('x'), 100);
        }
        res.on('close', () => {
          clearInterval(timer);
          if (!closing) abandoned.push({ path, seq: ++seq });
        });
        return;
      }
      const send = () => res.writeHead(reply.status, reply.headers ?? {}).end();
      if (reply.delay === undefined) send();
      else setTimeout(send, reply.delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url,
    received,
    abandoned,
    at,
    answer: (path, reply) => void replies.set(path, reply),
    release: (path) => hanging.filter((h) => h.path === path).forEach((h) => h.res.destroy()),
    async waitFor(path, count, ms = 10_000) {
      const end = Date.now() + ms;
      while (at(path).length < count) {
        if (Date.now() > end) throw new Error(`waited ${ms} ms for ${count} requests at ${path}; got ${at(path).length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return at(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const { res } of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
