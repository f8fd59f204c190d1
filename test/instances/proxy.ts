/**
 * @module A small round-robin HTTP proxy on loopback, as a load balancer in front of several instances: each
 * request goes to the next instance in turn (its method, path, headers and body as sent, over kept-alive
 * connections), and the instance's answer comes back as it is. An instance that cannot be reached (killed) answers
 * 502, as a load balancer does; the proxy does not retry, so a client sees what a real one would.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobin {
  readonly url: string;
  /** The instances requests go to, in turn (a test may replace one that restarted on another port). */
  targets: string[];
  /** How many requests went to each target URL. */
  readonly sent: Map<string, number>;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) are the proxy's own, never forwarded. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const forwarded = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP.has(name)));

/** Starts a proxy to `targets` (base URLs) on a random loopback port. */
export async function startProxy(targets: readonly string[]): Promise<RoundRobin> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const sent = new Map<string, number>();
  let next = 0;
  const proxy: RoundRobin = {
    url: '',
    targets: [...targets],
    sent,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const target = proxy.targets[next++ % proxy.targets.length]!;
    sent.set(target, (sent.get(target) ?? 0) + 1);
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: forwarded(req.headers), agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwarded(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'application/problem+json' }).end('{"type":"about:blank","title":"Bad Gateway","status":502}');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  });
}
