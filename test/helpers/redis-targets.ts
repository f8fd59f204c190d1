/**
 * @module The Redis deployments the Redis suites run against: a single redis-server (`scripts/ensure-redis.sh`)
 * and a cluster of 3 primaries with a replica each (`scripts/ensure-redis-cluster.sh`), both on loopback, shared by
 * the test files (each uses keys of its own). A test that stops or kills Redis starts a cluster of its own
 * ({@link OwnCluster}). Without redis-server the suites are skipped with a message, except in CI (`CI=true`), where
 * that fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Cluster, Redis, type ClusterOptions } from 'ioredis';

const SCRIPTS = new URL('../../scripts/', import.meta.url).pathname;
const TMP = new URL('../.tmp/', import.meta.url).pathname;

/** A Redis client as the server takes it: a single Redis or a cluster. */
export type AnyRedis = Redis | Cluster;

/** One deployment of Redis. */
export interface RedisTarget {
  readonly name: 'single' | 'cluster';
  /** Where it is: `redis://host:port`, or a cluster's nodes as `host:port,host:port,...`. */
  readonly address: string;
  /** A new client (the test disconnects it); errors are swallowed, as a server's own client would log them. */
  client(): AnyRedis;
}

/** Runs an ensure script; its last line of output, or null when it failed (the reason printed). */
function ensure(script: string, args: readonly string[] = []): string | null {
  try {
    return execFileSync('bash', [path.join(SCRIPTS, script), ...args], { encoding: 'utf8', timeout: 240_000, stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')
      .pop()!;
  } catch (error) {
    const why = (error as { stderr?: string }).stderr ?? String(error);
    if (process.env['CI'] === 'true') throw new Error(`CI=true: the Redis suites must run, but ${script} failed: ${why}`);
    console.warn(`SKIPPED: the Redis suites need redis-server; ${script} failed: ${why}`);
    return null;
  }
}

/** `host:port` nodes as ioredis takes them. */
const startupNodes = (nodes: string) =>
  nodes.split(',').map((node) => ({ host: node.slice(0, node.lastIndexOf(':')), port: Number(node.slice(node.lastIndexOf(':') + 1)) }));

/** A cluster client of `nodes` (`host:port,...`), errors swallowed. */
export function clusterClient(nodes: string, options: ClusterOptions = {}): Cluster {
  const client = new Cluster(startupNodes(nodes), options);
  client.on('error', () => undefined);
  return client;
}

let targets: RedisTarget[] | undefined;

/** The single Redis and the cluster, started when missing (once per worker); none without redis-server outside CI. */
export function redisTargets(): RedisTarget[] {
  if (targets) return targets;
  const url = process.env['REDIS_URL'] ?? ensure('ensure-redis.sh');
  const nodes = ensure('ensure-redis-cluster.sh');
  const found: RedisTarget[] = [];
  if (url !== null)
    found.push({
      name: 'single',
      address: url,
      client: () => {
        const client = new Redis(url);
        client.on('error', () => undefined);
        return client;
      },
    });
  if (nodes !== null) found.push({ name: 'cluster', address: nodes, client: () => clusterClient(nodes) });
  targets = found;
  return found;
}

/** `client` once connected (a cluster: once it knows which node serves each slot), so a test's first command is not its connection's wait. */
export async function ready<C extends AnyRedis>(client: C): Promise<C> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

/** The keys that start with `prefix` (on a cluster, on every primary). */
export async function keysUnder(client: AnyRedis, prefix: string): Promise<string[]> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  if (client instanceof Cluster) return (await Promise.all(client.nodes('master').map((node) => node.keys(pattern)))).flat();
  return client.keys(pattern);
}

/** A unique key prefix with a hash tag, for one test's keys. */
export const testPrefix = (name: string): string => `t:{${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}}:`;

/** A cluster of the test's own (in `test/.tmp/`), which it may freeze, kill and restart without disturbing others. */
export class OwnCluster {
  private constructor(
    readonly dir: string,
    readonly nodes: string,
  ) {}

  /** Starts 3 primaries with `replicas` replicas each; null without redis-server outside CI. */
  static start(replicas: 0 | 1): OwnCluster | null {
    const dir = mkdtempSync(path.join(TMP, 'own-cluster-'));
    const nodes = ensure('ensure-redis-cluster.sh', ['--dir', dir, '--replicas', String(replicas)]);
    return nodes === null ? null : new OwnCluster(dir, nodes);
  }

  /** The ports of the nodes. */
  get ports(): number[] {
    return startupNodes(this.nodes).map((n) => n.port);
  }

  /** A new client of this cluster. */
  client(): Cluster {
    return clusterClient(this.nodes);
  }

  /** The pid of the node on `port`. */
  pid(port: number): number {
    return Number(readFileSync(path.join(this.dir, String(port), 'redis.pid'), 'utf8').trim());
  }

  /** Sends `signal` to every node (SIGSTOP: frozen, connections open, nothing answered; SIGCONT: on again). */
  signalAll(signal: NodeJS.Signals): void {
    for (const port of this.ports) process.kill(this.pid(port), signal);
  }

  /** Starts again the nodes that are not running (with their cluster configuration) and waits until the cluster is ok. */
  restart(): void {
    execFileSync('bash', [path.join(SCRIPTS, 'ensure-redis-cluster.sh'), '--restart', '--dir', this.dir], { stdio: 'ignore', timeout: 60_000 });
  }

  /** Stops every node and removes the cluster's folder. */
  stop(): void {
    try {
      this.signalAll('SIGCONT');
    } catch {
      // A node killed by the test is gone already.
    }
    execFileSync('bash', [path.join(SCRIPTS, 'ensure-redis-cluster.sh'), '--stop', '--dir', this.dir], { stdio: 'ignore' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
