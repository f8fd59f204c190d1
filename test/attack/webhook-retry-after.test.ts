/**
 * Attack: a receiver answers 429 with a malformed or hostile `Retry-After`. Only what RFC 9110 allows is
 * honoured (delay-seconds, an HTTP-date in the future, in any of its three forms), at most `maxRetryAfter`, and
 * it may lengthen the schedule's next wait, never shorten it; `-5`, garbage and a date that has passed are
 * ignored and the retry schedule applies, so a receiver cannot make the dispatcher use up every attempt in a
 * moment. Real receiver on loopback; the
 * dispatcher's clock is injected and the retry time is read from the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../packages/runtime/src/webhook-dispatch.ts';
import { httpDate, retryAfterOf } from '../../packages/runtime/src/webhook-retry-after.ts';
import { createSecret } from '../../packages/runtime/src/webhook-sign.ts';
import { createMemoryEndpoints, createMemoryOutbox, type Claimed, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const SCHEDULE = 5_000;
const MAX = 3_600_000;
const imf = (ms: number) => new Date(ms).toUTCString();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** One attempt answered 429 with `value`: how long the dispatcher waits before the next (from the outbox). */
async function waitAfter(value: string, n: number): Promise<number> {
  const path = `/busy-${n}`;
  receiver.answer(path, () => ({ status: 429, headers: { 'retry-after': value } }));
  const endpoints = createMemoryEndpoints();
  await endpoints.put({
    id: 'e1',
    url: receiver.url + path,
    events: ['order.created'],
    status: 'enabled',
    disabledReason: null,
    version: 'v1',
    createdAt: new Date(NOW).toISOString(),
    secrets: [{ secret: createSecret(), expiresAt: null }],
    failedMessages: 0,
  });
  const memory = createMemoryOutbox();
  const retries: number[] = [];
  const outbox: Outbox = { ...memory, retry: (c: Claimed, dueAt: number) => (retries.push(dueAt), memory.retry(c, dueAt)) };
  await outbox.add([{ id: `msg_${n}`, endpoint: 'e1', type: 'order.created', body: '{}', attempts: 0, dueAt: NOW }]);
  const dispatcher = createDispatcher({
    outbox,
    endpoints,
    allowPrivateUrls: true,
    now: () => NOW,
    retrySchedule: [SCHEDULE, SCHEDULE],
    jitter: 0,
    maxRetryAfter: MAX,
  });
  expect(await dispatcher.runOnce()).toBe(1);
  expect(retries).toHaveLength(1);
  return retries[0]! - NOW;
}

describe("a receiver's Retry-After", () => {
  const cases: [string, string, number][] = [
    ['-5', 'negative: not delay-seconds', SCHEDULE],
    ['soon', 'garbage', SCHEDULE],
    ['1.5', 'a fraction: not delay-seconds', SCHEDULE],
    ['0x10', 'hexadecimal', SCHEDULE],
    [imf(NOW - 60_000), 'an HTTP-date that has passed', SCHEDULE],
    ['Fri, 31 Feb 2026 10:00:00 GMT', 'a date that does not exist', SCHEDULE],
    ['2026-01-15T13:00:00Z', 'ISO 8601 is no HTTP-date', SCHEDULE],
    ['99999999999999999999', 'huge: capped at maxRetryAfter', MAX],
    [imf(NOW + 30 * 86_400_000), 'a date a month ahead: capped', MAX],
    ['0', 'zero: never shorter than the schedule', SCHEDULE],
    ['2', 'two seconds: never shorter than the schedule', SCHEDULE],
    ['120', 'delay-seconds', 120_000],
    [imf(NOW + 90_000), 'an IMF-fixdate 90 s ahead', 90_000],
    ['Thursday, 15-Jan-26 12:02:00 GMT', 'an RFC 850 date 2 min ahead', 120_000],
    ['Thu Jan 15 12:03:00 2026', 'an asctime date 3 min ahead', 180_000],
  ];
  it.each(cases.map(([value, why, wait], i) => [value, why, wait, i] as const))('429 with Retry-After %j (%s) waits %d ms', async (value, _why, wait, i) => {
    expect(await waitAfter(value, i)).toBe(wait);
  });

  it('parses the three HTTP-date forms to the same moment', () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(httpDate('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(at);
    expect(httpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(at);
    expect(httpDate('Sun Nov  6 08:49:37 1994', NOW)).toBe(at);
    expect(retryAfterOf(undefined, NOW, MAX)).toBeUndefined();
  });
});
