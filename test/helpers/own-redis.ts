/**
 * @module A Redis of the test's own, a single redis-server or a cluster of 3 primaries, that the test freezes
 * (SIGSTOP: connections stay open, nothing is answered), kills (SIGKILL) and starts again, to see what a server
 * does while Redis is away. Null without redis-server, except in CI (`CI=true`), where that fails.
 */
import { Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { RedisProcess, redisBinary, requireRedis } from '../attack/redis-server.ts';
import { clusterClient, OwnCluster, type AnyRedis } from './redis-targets.ts';

/** A Redis the test controls. */
export interface OwnRedis {
  readonly kind: 'single' | 'cluster';
  /** A new client whose commands wait for ever while Redis is away (only the server's own bound answers). */
  client(): AnyRedis;
  freeze(): void;
  thaw(): void;
  /** Kills every process (as a crash) and waits for them to end. */
  kill(): Promise<void>;
  /** Starts again what was killed, with its configuration; resolves once it answers. */
  restart(): Promise<void>;
  /** Stops everything for good. */
  stop(): Promise<void>;
}

/** Starts a Redis of `kind`; null (a visible skip) without redis-server outside CI. */
export async function startOwnRedis(kind: 'single' | 'cluster'): Promise<OwnRedis | null> {
  if (kind === 'single') {
    const binary = redisBinary();
    if (!requireRedis(binary)) return null;
    const redis = await RedisProcess.start(binary!);
    return {
      kind,
      client: () => {
        const options: RedisOptions = { maxRetriesPerRequest: null };
        const client = new Redis(redis.url, options);
        client.on('error', () => undefined);
        return client;
      },
      freeze: () => redis.freeze(),
      thaw: () => redis.thaw(),
      kill: () => redis.kill(),
      restart: () => redis.restart(),
      stop: () => (redis.thaw(), redis.kill()),
    };
  }
  const cluster = OwnCluster.start(0);
  if (cluster === null) return null;
  const pids = () => cluster.ports.map((port) => cluster.pid(port));
  return {
    kind,
    client: () => {
      // Reconnects every 100 ms once the nodes are back (the default waits up to 2 s between tries).
      const options: ClusterOptions = { clusterRetryStrategy: () => 100, redisOptions: { maxRetriesPerRequest: null } };
      return clusterClient(cluster.nodes, options);
    },
    freeze: () => cluster.signalAll('SIGSTOP'),
    thaw: () => cluster.signalAll('SIGCONT'),
    async kill() {
      const running = pids();
      for (const pid of running) process.kill(pid, 'SIGKILL');
      // Gone once signal 0 finds no such process.
      for (let i = 0; i < 100 && running.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
    },
    restart: async () => cluster.restart(),
    stop: async () => cluster.stop(),
  };
}

/** Whether a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
