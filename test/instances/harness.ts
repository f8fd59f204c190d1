/**
 * @module Several instances of a generated server behind a round-robin proxy, as a team runs them behind a load
 * balancer: N child processes of the shop on PostgreSQL (`test/postgres/fixtures/shop-child.ts`, bundled once per
 * test file), each with its own connection pool and Redis client, sharing one database and one Redis Cluster. A test
 * kills an instance (SIGKILL), starts it again, and calls the API through the proxy or one instance directly.
 */
import { startChild, type Child } from '../postgres/child.ts';
import { startProxy, type RoundRobin } from './proxy.ts';

/** The instances and their proxy. */
export interface Instances {
  readonly proxy: RoundRobin;
  /** The running child of each instance (replaced when it restarts). */
  readonly children: Child[];
  /** Kills instance `i` (SIGKILL, as a crash) and waits for it to end. */
  kill(i: number): Promise<void>;
  /**
   * Starts instance `i` again (killing it first if it runs), in the proxy's turn where it was, with `changes` to its
   * environment (kept for its later restarts; an empty value turns a setting off).
   */
  restart(i: number, changes?: Readonly<Record<string, string>>): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `n` instances with `env` (and each one's `own(i)`), and a proxy in front of them. */
export async function startInstances(
  n: number,
  env: Readonly<Record<string, string>>,
  own: (i: number) => Readonly<Record<string, string>> = () => ({}),
): Promise<Instances> {
  const envs = Array.from({ length: n }, (_, i) => ({ ...env, ...own(i) }));
  const children = await Promise.all(envs.map((e) => startChild(e)));
  const proxy = await startProxy(children.map((c) => c.url));
  const kill = async (i: number) => {
    const child = children[i]!;
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  };
  return {
    proxy,
    children,
    kill,
    async restart(i, changes = {}) {
      // The one running (if any) goes first: two instances never hold one place.
      await kill(i);
      envs[i] = { ...envs[i]!, ...changes };
      children[i] = await startChild(envs[i]!);
      proxy.targets[i] = children[i]!.url;
    },
    /** Stops the proxy and kills every instance (a test's teardown needs no graceful close). */
    async stop() {
      await proxy.close();
      await Promise.all(children.map((_, i) => kill(i)));
    },
  };
}

/** An HTTP answer: status, headers, and the parsed JSON body (`{}` when empty). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** Calls `base + path` with a bearer token of every scope; 'connection lost' when the server died first. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer | 'connection lost'> {
  try {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: 'Bearer admin', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return 'connection lost';
  }
}

/** Calls through `base` until the answer is neither a lost connection nor a 502/503 (an instance down, Redis away). */
export async function callUntilAnswered(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await call(base, method, path, body, headers);
    if (answer !== 'connection lost' && answer.status !== 502 && answer.status !== 503) return answer;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${method} ${path} got no answer in 200 tries`);
}
