/**
 * Events the log kept under an older contract, read over real HTTP from the shop example's stream: an order logged
 * before v3 added `total` (with a default) reaches readers of v1, v2 and v3, v3's with the default, and is noted as
 * older data (logged at warn, reported to `onOutdatedValue`); an event no version can read (its `quantity` missing)
 * is skipped, logged with its id, and the stream goes on past it, with its id carried by the next heartbeat so a
 * resume does not read it again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryEventLog, type OutdatedValue } from '../../packages/runtime/src/index.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { openStream } from './sse.ts';

let mod: ServerModule;
const servers: Running[] = [];
const outdated: OutdatedValue[] = [];
const log = createMemoryEventLog({ events: 1000 });

/** An order as the log kept it when v2 was the newest version: no `total`, no `invoice`. */
const beforeV3 = (n: number, extra: object = {}) => ({
  type: 'order.created',
  time: Date.now(),
  data: JSON.stringify({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    customer_id: '00000000-0000-4000-8000-000000000001',
    product_id: 7,
    quantity: 2,
    currency: 'USD',
    giftMessage: 'hi',
    status: 'open',
    createdAt: '2026-06-01T00:00:00.000Z',
    ...extra,
  }),
});

let server: Running;
beforeAll(async () => {
  mod = await importServer(await generateInto('stream-older'));
  server = await start(
    (app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: ({ token }: { token: string }) => ({ id: token, scopes: ['orders:read'] }),
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        stream: { log, heartbeat: 15_000 },
        onOutdatedValue: (report: OutdatedValue) => outdated.push(report),
      }),
    'warn',
  );
  servers.push(server);
  await log.append([beforeV3(1)]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('events logged under an older contract', () => {
  it('reach readers of every version, v3 with the default of the field added since', async () => {
    const [v1, v2, v3] = await Promise.all(['v1', 'v2', 'v3'].map((v) => openStream(`${server.url}/${v}/events?after=0`)));
    expect([v1!.status, v2!.status, v3!.status]).toEqual([200, 200, 200]);
    const [a] = await v1!.waitFor(1);
    const [b] = await v2!.waitFor(1);
    const [c] = await v3!.waitFor(1);
    expect(a!.id).toBe('1');
    expect(a!.data.data).toMatchObject({ qty: 2, note: 'hi', status: 'open' });
    expect(a!.data.data).not.toHaveProperty('total');
    expect(b!.data.data).toMatchObject({ quantity: 2, currency: 'USD', giftMessage: 'hi' });
    expect(b!.data.data).not.toHaveProperty('total');
    expect(c!.data.data).toMatchObject({ quantity: 2, currency: 'USD', giftMessage: 'hi', total: 0 });
    for (const s of [v1, v2, v3]) s!.drop();
    // Answered as older data: logged at warn and reported, with where and what.
    expect(outdated).toContainEqual(expect.objectContaining({ version: 'v3', collection: 'orders', pointer: '#/total' }));
    expect(server.errors.some((line) => line.includes('stored under an older contract at #/total'))).toBe(true);
  });

  it('skips an event no version can read, logs it, and goes on (its id carried by the next heartbeat)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const s = await openStream(`${server.url}/v3/events?after=1`);
      // Logged before v2 renamed qty to quantity: no version has a quantity to show.
      await log.append([beforeV3(2, { quantity: undefined, qty: 5 })]);
      await log.append([beforeV3(3)]);
      const [next] = await s.waitFor(1);
      expect(next!.id).toBe('3');
      expect(s.events).toHaveLength(1);
      expect(server.errors.some((line) => line.includes('"seq":2') && line.includes('does not fit the v3 schema; not streamed'))).toBe(true);
      s.drop();
      // A reader of only the unreadable one moves past it at the heartbeat, and resumes after it.
      const t = await openStream(`${server.url}/v3/events?after=1&types=order.created`);
      await log.append([beforeV3(4, { quantity: undefined })]);
      await expect.poll(() => server.errors.some((line) => line.includes('"seq":4'))).toBe(true);
      await vi.advanceTimersByTimeAsync(15_000);
      await expect.poll(() => t.lastId).toBe('4');
      expect(t.events.map((e) => e.id)).toEqual(['3']);
      t.drop();
    } finally {
      vi.useRealTimers();
    }
  });
});
