/**
 * Receivers that never answer beside a healthy one, over real HTTP on loopback, with the outbox in memory, in a
 * real single Redis and in a real Redis Cluster. One hanging endpoint holds at most its own slots
 * (`endpointConcurrency`), and the healthy endpoint receives every one of its messages while every attempt to the
 * hanging endpoint still hangs (their `attemptTimeout` is longer than the test). Ten that hang or trickle their
 * headers, whose deliveries (three each) come first, take every slot of the dispatcher, one each (a claim goes
 * breadth first); once their attempts count as slow (on the test's clock, moved past `SLOW_AFTER`), they hold at most
 * half of the slots, and the healthy endpoint receives all 15 of its messages while every one of their attempts
 * still hangs. Judged by what the receiver saw, never by
 * the wall clock; the time it takes is measured by the bench.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, SLOW_AFTER } from '../../packages/runtime/src/webhook-dispatch.ts';
import { createRedisOutbox } from '../../packages/runtime/src/webhook-redis.ts';
import { createSecret } from '../../packages/runtime/src/webhook-sign.ts';
import { createMemoryEndpoints, createMemoryOutbox, type EndpointRecord, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { redisTargets, testPrefix } from '../helpers/redis-targets.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const MESSAGES = 15;
const PER_ENDPOINT = 3;
const SLOW = 10;
const CONCURRENCY = 10;

let receiver: Receiver;
const clients: { disconnect(): void }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  clients.forEach((c) => c.disconnect());
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
  ...Object.fromEntries(
    redisTargets().map((target) => [
      `redis (${target.name})`,
      async () => {
        const client = target.client();
        clients.push(client);
        return createRedisOutbox(client, testPrefix('isolation'));
      },
    ]),
  ),
};

describe.each(Object.keys(outboxes))('a receiver that never answers, outbox in %s', (kind) => {
  it('costs only its own queue: the healthy endpoint gets every message while the attempts to the hanging one hang', async () => {
    const [hang, ok] = [`/hang-${kind.replace(/\W/g, '')}`, `/ok-${kind.replace(/\W/g, '')}`];
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

describe.each(Object.keys(outboxes))('ten hanging or trickling receivers beside a healthy one, outbox in %s', (kind) => {
  it('the healthy endpoint receives its 15 messages while every attempt to the others still hangs', async () => {
    const tag = kind.replace(/\W/g, '');
    const slowPaths = Array.from({ length: SLOW }, (_, i) => `/${tag}-slow-${i}`);
    const ok = `/${tag}-ok`;
    slowPaths.forEach((path, i) => receiver.answer(path, () => (i % 2 === 0 ? 'hang' : 'trickle')));
    const endpoints = createMemoryEndpoints();
    for (const [i, path] of slowPaths.entries()) await endpoints.put(endpoint(`slow-${i}`, receiver.url + path));
    await endpoints.put(endpoint('healthy', receiver.url + ok));
    const outbox = await outboxes[kind]!();
    // The slow endpoints' messages came first, 3 each, one endpoint's after another's; then the healthy endpoint's 15.
    await outbox.add([
      ...slowPaths.flatMap((_, i) =>
        Array.from({ length: PER_ENDPOINT }, (_, n) => ({
          id: `msg_s${i}_${n}`,
          endpoint: `slow-${i}`,
          type: 'order.created',
          body: '{}',
          attempts: 0,
          dueAt: i * PER_ENDPOINT + n,
        })),
      ),
      ...Array.from({ length: MESSAGES }, (_, n) => ({
        id: `msg_ok${n}`,
        endpoint: 'healthy',
        type: 'order.created',
        body: `{"n":${n}}`,
        attempts: 0,
        dueAt: 100 + n,
      })),
    ]);
    let now = 1_000;
    const dispatcher = createDispatcher({
      outbox,
      endpoints,
      allowPrivateUrls: true,
      // Longer than the test: no attempt to a slow receiver ends (and frees its slot) before it is released.
      attemptTimeout: 600_000,
      pollInterval: 20,
      retrySchedule: [600_000],
      jitter: 0,
      concurrency: CONCURRENCY,
      endpointConcurrency: PER_ENDPOINT,
      now: () => now,
    });
    const slowSeen = () => slowPaths.reduce((n, path) => n + receiver.at(path).length, 0);
    dispatcher.start();
    try {
      // Every slot is taken by a slow receiver, in due order: the healthy endpoint has none yet.
      for (let i = 0; i < 500 && slowSeen() < CONCURRENCY; i++) await new Promise((r) => setTimeout(r, 10));
      expect(slowSeen()).toBe(CONCURRENCY);
      expect(receiver.at(ok)).toHaveLength(0);
      // Their attempts have been in flight for SLOW_AFTER now: they count as slow, and hold half of the slots at most.
      now += SLOW_AFTER;
      const healthy = await receiver.waitFor(ok, MESSAGES);
      expect(new Set(healthy.map((r) => r.headers['webhook-id'])).size).toBe(MESSAGES);
      // Nothing more of the slow endpoints was claimed, and none of their attempts ended.
      expect(slowSeen()).toBe(CONCURRENCY);
      expect(receiver.abandoned.filter((a) => slowPaths.includes(a.path))).toEqual([]);
    } finally {
      slowPaths.forEach((path) => receiver.release(path));
      await dispatcher.stop();
    }
  });
});
