/**
 * @module Fair delivery in wall-clock time: the dispatcher (default settings: concurrency 10, 3 per endpoint) with
 * 10 receivers that hang or trickle their headers, whose 30 deliveries are due first, and one healthy endpoint with 15
 * messages due just after them. How long after their creation the healthy endpoint has received all 15, per round. A
 * building block of this package measured alone (the memory outbox and endpoint store, a real HTTP receiver on
 * loopback), so it lives with its sources; `npm run bench` runs it. The tests hold the rule by counts
 * (`test/webhooks/isolation.test.ts`); this measures the time. Run: `npx jiti packages/runtime/bench/fairness.ts`;
 * `BENCH_ROUNDS` (default 5).
 */
import { createDispatcher } from '../src/webhook-dispatch.ts';
import { createSecret } from '../src/webhook-sign.ts';
import { createMemoryEndpoints, createMemoryOutbox } from '../src/webhook-store.ts';
import { startReceiver } from '../../../test/webhooks/receiver.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

/** Milliseconds from their creation until a healthy endpoint received its 15 messages beside 10 slow receivers. */
async function round(): Promise<number> {
  const receiver = await startReceiver();
  const endpoints = createMemoryEndpoints();
  const outbox = createMemoryOutbox();
  const record = (id: string, url: string) => ({
    id,
    url,
    events: ['order.created'],
    status: 'enabled' as const,
    disabledReason: null,
    version: 'v1',
    createdAt: new Date(0).toISOString(),
    secrets: [{ secret: createSecret(), expiresAt: null }],
    failedMessages: 0,
  });
  for (let i = 0; i < 10; i++) {
    receiver.answer(`/slow-${i}`, () => (i % 2 === 0 ? 'hang' : 'trickle'));
    await endpoints.put(record(`slow-${i}`, `${receiver.url}/slow-${i}`));
  }
  await endpoints.put(record('healthy', `${receiver.url}/ok`));
  const dispatcher = createDispatcher({ outbox, endpoints, allowPrivateUrls: true });
  const created = Date.now();
  await outbox.add([
    ...Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 3 }, (_, n) => ({ id: `s${i}-${n}`, endpoint: `slow-${i}`, type: 'order.created', body: '{}', attempts: 0, dueAt: created })),
    ).flat(),
    ...Array.from({ length: 15 }, (_, n) => ({ id: `ok-${n}`, endpoint: 'healthy', type: 'order.created', body: '{}', attempts: 0, dueAt: created + 1 })),
  ]);
  dispatcher.start();
  try {
    await receiver.waitFor('/ok', 15, 60_000);
    return Date.now() - created;
  } finally {
    for (let i = 0; i < 10; i++) receiver.release(`/slow-${i}`);
    await dispatcher.stop();
    await receiver.close();
  }
}

const times: number[] = [];
for (let r = 0; r < ROUNDS; r++) times.push(await round());
const sorted = [...times].sort((a, b) => a - b);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  [
    `fairness bench: the dispatcher with default settings (concurrency 10, 3 per endpoint), memory outbox, a receiver on loopback; ${ROUNDS} rounds.`,
    '',
    'Beside 10 receivers that hang or trickle their headers (their 30 deliveries due first), the time from their creation until a healthy endpoint received its 15 messages:',
    '',
    '| median | fastest | slowest |',
    '|---|---|---|',
    `| ${s(sorted[Math.floor(sorted.length / 2)]!)} | ${s(sorted[0]!)} | ${s(sorted[sorted.length - 1]!)} |`,
  ].join('\n'),
);
