/**
 * @module Test helper: a small node:http server on 127.0.0.1 (port 0) that answers each request with the
 * next scripted reply, recording every request (method, URL, headers, body) for the tests to inspect.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What to answer: a status, headers and a JSON body; or `hang` (never answer) or `destroy` (drop the socket). */
export type Reply = { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown } | 'hang' | 'destroy';

/** A running fault server. */
export interface FaultServer {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

/** A problem+json reply. */
export function problem(status: number, title: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: { type: 'about:blank', title, status, ...extra } };
}

/**
 * Starts a server answering the n-th request with `replies(n, seen)` (n from 0). A function lets a test
 * answer by content (pages by cursor, say).
 */
export async function startFaultServer(replies: readonly Reply[] | ((n: number, seen: Seen) => Reply)): Promise<FaultServer> {
  const seen: Seen[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      const n = seen.length - 1;
      const reply = typeof replies === 'function' ? replies(n, request) : (replies[n] ?? replies[replies.length - 1]!);
      if (reply === 'hang') return void hanging.add(res);
      if (reply === 'destroy') return void req.socket.destroy();
      const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { ...(body ? { 'content-type': 'application/json' } : {}), ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
