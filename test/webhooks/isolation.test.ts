/**
 * One receiver that never answers beside a healthy one, over real HTTP on loopback, with the outbox in memory
 * and in a real Redis: the hanging endpoint holds at most its own slots (`endpointConcurrency`), and the
 * healthy endpoint receives every one of its messages while every attempt to the hanging endpoint still hangs
 * (their `attemptTimeout` is longer than the test) — judged by what the receiver saw, not by a clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../packages/runtime/src/webhook-dispatch.ts';
import { createRedisOutbox } from '../../packages/runtime/src/webhook-redis.ts';
import { createSecret } from '../../packages/runtime/src/webhook-sign.ts';
import { createMemoryEndpoints, createMemoryOutbox, type EndpointRecord, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { RedisProcess, redisBinary, requireRedis } from '../attack/redis-server.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const MESSAGES = 15;
const PER_ENDPOINT = 3;

const binary = redisBinary();
const withRedis = requireRedis(binary);

let receiver: Receiver;
let redis: RedisProcess | null = null;
const clients: { disconnect(): void }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  if (withRedis) redis = await RedisProcess.start(binary!);
});
afterAll(async () => {
  await receiver?.close();
  clients.forEach((c) => c.disconnect());
  await redis?.kill();
});

const endpoint = (id: string, url: string): EndpointRecord => ({
  id,
  url,
  events: ['order.created'],
  status: 'enabled',
  disabledReason: null,
  version: 'v1',
  createdAt: new Date(0).toISOString(),
  secrets: [{ secret: createSecret(), expiresAt: null }],
  failedMessages: 0,
});

const outboxes: Record<string, () => Promise<Outbox>> = {
  memory: async () => createMemoryOutbox(),
  redis: async () => {
    const { Redis } = await import('ioredis');
    const client = new Redis(redis!.url);
    client.on('error', () => undefined);
    clients.push(client);
    return createRedisOutbox(client, `isolation:${process.pid}:${Date.now()}:`, 2_000);
  },
};

describe.each(Object.keys(outboxes).filter((k) => k === 'memory' || withRedis))('a receiver that never answers, outbox in %s', (kind) => {
  it('costs only its own queue: the healthy endpoint gets every message while the attempts to the hanging one hang', async () => {
    const [hang, ok] = [`/hang-${kind}`, `/ok-${kind}`];
    receiver.answer(hang, () => 'hang');
    const endpoints = createMemoryEndpoints();
    await endpoints.put(endpoint('a-hanging', receiver.url + hang));
    await endpoints.put(endpoint('b-healthy', receiver.url + ok));
    const outbox = await outboxes[kind]!();
    // The events came in one after the other: each went to both endpoints, the hanging one first.
    await outbox.add(
      Array.from({ length: MESSAGES }, (_, i) => [
        { id: `msg_a${i}`, endpoint: 'a-hanging', type: 'order.created', body: `{"n":${i}}`, attempts: 0, dueAt: i },
        { id: `msg_b${i}`, endpoint: 'b-healthy', type: 'order.created', body: `{"n":${i}}`, attempts: 0, dueAt: i },
      ]).flat(),
    );
    const dispatcher = createDispatcher({
      outbox,
      endpoints,
      allowPrivateUrls: true,
      // Longer than the test: no attempt to the hanging endpoint ends (and frees its slot) before it is released.
      attemptTimeout: 600_000,
      pollInterval: 20,
      retrySchedule: [600_000],
      jitter: 0,
      concurrency: 10,
      endpointConcurrency: PER_ENDPOINT,
    });
    dispatcher.start();
    try {
      // A dispatcher that let the hanging endpoint take every slot would deliver nothing more until an attempt ended.
      const healthy = await receiver.waitFor(ok, MESSAGES);
      expect(new Set(healthy.map((r) => r.headers['webhook-id'])).size).toBe(MESSAGES);
      await receiver.waitFor(hang, PER_ENDPOINT);
      expect(receiver.abandoned.filter((a) => a.path === hang)).toEqual([]);
      // The hanging endpoint holds its own slots and no more: nothing else of it is claimed while they hang.
      expect(await dispatcher.runOnce()).toBe(0);
      expect(receiver.at(hang)).toHaveLength(PER_ENDPOINT);
    } finally {
      receiver.release(hang);
      await dispatcher.stop();
    }
  });
});
