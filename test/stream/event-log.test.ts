/**
 * The memory event log on its own: sequences, pages, retention by count and by age (an injected clock), and
 * `expired` for positions it cannot serve in full.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryEventLog } from '../../packages/runtime/src/index.ts';

const event = (n: number, time = 0) => ({ type: 't', time, data: String(n) });

describe('the memory event log', () => {
  it('numbers events from 1 in order and reads pages after a position', async () => {
    const log = createMemoryEventLog();
    expect(await log.read(0, 10)).toEqual({ events: [], head: 0, expired: false });
    await log.append([event(1, Date.now()), event(2, Date.now())]);
    await log.append([event(3, Date.now())]);
    const page = await log.read(1, 1);
    expect(page.head).toBe(3);
    expect(page.events.map((e) => [e.seq, e.data])).toEqual([[2, '2']]);
    expect((await log.read(3, 10)).events).toEqual([]);
    // An id it never handed out (the log was emptied by a restart since) cannot be resumed from.
    expect((await log.read(4, 10)).expired).toBe(true);
  });

  it('keeps the newest retention.events events', async () => {
    const log = createMemoryEventLog({ events: 3 });
    await log.append([1, 2, 3, 4, 5].map((n) => event(n, Date.now())));
    expect((await log.read(1, 10)).expired).toBe(true);
    const page = await log.read(2, 10);
    expect(page.expired).toBe(false);
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('drops events older than retention.ms when the next one comes', async () => {
    let now = 1_000_000;
    const log = createMemoryEventLog({ ms: 60_000 }, () => now);
    await log.append([event(1, now), event(2, now)]);
    now += 60_000;
    await log.append([event(3, now)]);
    expect((await log.read(0, 10)).events.map((e) => e.seq)).toEqual([1, 2, 3]);
    now += 1;
    await log.append([event(4, now)]);
    expect((await log.read(0, 10)).expired).toBe(true);
    expect((await log.read(2, 10)).events.map((e) => e.seq)).toEqual([3, 4]);
  });

  it('holds memory for the kept events only, over many appends', async () => {
    const log = createMemoryEventLog({ events: 100 });
    for (let i = 0; i < 5000; i++) await log.append([event(i, Date.now())]);
    const page = await log.read(4900, 1000);
    expect(page.events).toHaveLength(100);
    expect(page.events[0]!.seq).toBe(4901);
    expect((await log.read(4899, 1)).expired).toBe(true);
  });
});
