/**
 * User code that fails with a value whose property access throws (a hostile getter, a Proxy whose traps throw, a
 * revoked Proxy) never crashes the process and never changes an answer beyond the documented one: listeners
 * (`onVersionUse`, `onOutdatedValue`) change nothing; handlers, migration hooks, `authenticate` and `pinnedVersion`
 * answer the usual 500 telling nothing; a handler that rejects after its request timed out, and the webhook
 * dispatcher's stores, are logged; an outbox that refuses deliveries after the change was stored has them held and
 * logged as lost at stop; a Redis client that rejects with such a value is Redis away. Every failure is logged, at warn with a logger that writes it (pino's error
 * serializer reads the value's properties, which is what threw before).
 */
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../packages/runtime/src/webhook-dispatch.ts';
import { createRedisGuard, RedisUnavailable } from '../../packages/runtime/src/redis-guard.ts';
import { createDeferredEvents } from '../../packages/runtime/src/webhook-deferred.ts';
import { createMemoryEndpoints, type Claimed, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running, type ServerModule } from '../server/helpers.ts';
import { KEYS, LEDGER_API } from '../versions/ledger.ts';

const trap = (): never => {
  throw new Error('trap');
};
/** Values that throw when anything asks them anything. */
const HOSTILE: Readonly<Record<string, () => unknown>> = {
  'a Proxy whose traps throw': () => new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap, apply: trap }),
  'a Proxy whose traps throw the Proxy itself': () => {
    const self: object = new Proxy(
      {},
      {
        get: () => {
          throw self;
        },
        getPrototypeOf: () => {
          throw self;
        },
      },
    );
    return self;
  },
  'an Error whose getters throw': () =>
    // stack first: redefining it formats the stack, which reads name and message.
    Object.defineProperties(new Error('hidden'), { stack: { get: trap }, message: { get: trap }, name: { get: trap } }),
  'a revoked Proxy': () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
};
const CASES = Object.entries(HOSTILE);

/** Collects what reaches the process (an unhandled rejection ends a real server) while `run` runs and settles. */
async function processFailures(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const on = (e: unknown) => void seen.push(e);
  process.on('unhandledRejection', on);
  process.on('uncaughtException', on);
  try {
    await run();
    // A rejection is reported once the microtasks after it ran: let them run.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', on);
    process.off('uncaughtException', on);
  }
  return seen;
}

/** The logged lines of `server` as JSON, with `msg`. */
const logged = (server: Running, msg: string) =>
  server.errors
    .flatMap((l) => l.split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['msg'] === msg);

const INTERNAL = { status: 500, code: 'internal_error', detail: 'The server failed to answer; the error has been logged.' };

describe('listeners: what they throw or reject with changes nothing', () => {
  let ledger: ServerModule;
  beforeAll(async () => {
    ledger = await importServer(await generateInto('hostile-ledger', LEDGER_API));
  });
  const startLedger = (options: object) =>
    start((app) => registerOf(ledger, 'Ledger')(app, ledger.createMemoryHandlers(), { apiKeys: KEYS, rateLimit: false, ...options }), 'warn');
  /** One list of accounts in 2025-01-15 on a ledger started with `options`: its answer, what reached the process, the onVersionUse log lines. */
  const listAccounts = async (options: object) => {
    const server = await startLedger(options);
    try {
      let answer: Awaited<ReturnType<Running['call']>> | undefined;
      const failures = await processFailures(async () => {
        answer = await server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old', 'ledger-version': '2025-01-15' } });
      });
      return { answer: answer!, failures, lines: logged(server, 'onVersionUse failed') };
    } finally {
      await server.close();
    }
  };

  describe.each(CASES)('onVersionUse with %s', (_, value) => {
    it.each([
      [
        'throws it',
        () => {
          throw value();
        },
      ],
      ['rejects with it', () => Promise.reject(value())],
      [
        'returns a thenable whose then throws it',
        () => ({
          // biome-ignore lint/suspicious/noThenProperty: a thenable whose then throws is the case under test.
          get then() {
            throw value();
          },
        }),
      ],
    ])('%s: the answer is the same, the failure logged', async (_, onVersionUse) => {
      const { answer, failures, lines } = await listAccounts({ onVersionUse });
      expect(failures).toEqual([]);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ledger-version')).toBe('2025-01-15');
      expect(lines).toEqual([expect.objectContaining({ level: 40, source: 'options.onVersionUse', err: expect.anything() })]);
    });
  });

  it.each(CASES)('onVersionUse that returns %s: the answer is the same', async (_, value) => {
    const { answer, failures } = await listAccounts({ onVersionUse: () => value() });
    expect(failures).toEqual([]);
    expect(answer.status).toBe(200);
  });

  it.each(CASES)('pinnedVersion that throws, rejects with or returns %s answers 500, logged', async (_, value) => {
    for (const pinnedVersion of [
      () => {
        throw value();
      },
      () => Promise.reject(value()),
      () => value(),
    ]) {
      const server = await startLedger({ pinnedVersion });
      try {
        let answer: Awaited<ReturnType<Running['call']>> | undefined;
        const failures = await processFailures(async () => {
          answer = await server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old' } });
        });
        expect(failures).toEqual([]);
        expect(answer!.status).toBe(500);
        expect(answer!.body).toMatchObject(INTERNAL);
        expect(server.errors.join('')).toContain('options.pinnedVersion');
      } finally {
        await server.close();
      }
    }
  });
});

describe('handlers, hooks and authenticate: the documented 500, logged', () => {
  let shop: ServerModule;
  let value: () => unknown = HOSTILE['a Proxy whose traps throw']!;
  let server: Running;
  let late: ((error: unknown) => void) | undefined;
  const hostileNow = () => value();
  const LONG = 'n'.repeat(300);
  const CUSTOMER = '0b7d8f7e-3c2a-4c1e-9a55-1f0a7e0c2b11';
  beforeAll(async () => {
    shop = await importServer(await generateInto('hostile-shop'));
    const memory = shop.createMemoryHandlers({
      customers: [{ id: CUSTOMER, email: 'old@example.com', name: LONG, tier: 'free', tags: [], createdAt: '2026-01-01T00:00:00.000Z' }],
    });
    const handlers = {
      ...memory,
      customers: {
        ...memory['customers'],
        // Each failure path of a handler: a sync throw, an async rejection, a value that is no resource.
        list: () => {
          throw hostileNow();
        },
        create: async () => Promise.reject(hostileNow()),
        replace: () => hostileNow(),
        // Answers after the request timed out, with a rejection.
        update: () =>
          new Promise((_, reject) => {
            late = reject;
          }),
      },
    };
    server = await start(
      (app) =>
        registerOf(shop, 'Shop')(app, handlers, {
          authenticate: (credential: { token: string }) => (credential.token === 'hostile' ? Promise.reject(hostileNow()) : testAuthenticate(credential)),
          migrations: {
            ...SHOP_MIGRATIONS,
            v3: { ...SHOP_MIGRATIONS.v3, orders: { reference: { up: () => hostileNow(), down: () => hostileNow() } } },
          },
          onOutdatedValue: () => Promise.reject(hostileNow()),
          rateLimit: false,
          requestTimeout: 50,
        }),
      'warn',
    );
  });
  afterAll(() => server?.close());

  it.each(CASES)('with %s', async (_, make) => {
    value = make;
    const failures = await processFailures(async () => {
      for (const [method, path, init] of [
        ['GET', '/v3/customers', {}],
        ['POST', '/v3/customers', { body: { email: 'a@example.com' } }],
        ['POST', '/v3/customers', { body: { email: 'b@example.com' }, headers: { 'idempotency-key': `k-${_}` } }],
        ['PUT', `/v3/customers/${CUSTOMER}`, { body: { email: 'c@example.com' } }],
        ['GET', '/v3/orders', { token: 'hostile' }],
        ['POST', '/v2/orders', { body: { customer_id: CUSTOMER, product_id: 1, quantity: 1, reference: 12 } }],
      ] as const) {
        const answer = await server.call(method, path, init);
        expect(answer.status, `${method} ${path}`).toBe(500);
        expect(answer.body).toMatchObject(INTERNAL);
      }
      // A listener on a value stored under an older contract: the answer is sent as it is.
      const outdated = await server.call('GET', `/v3/customers/${CUSTOMER}`);
      expect(outdated.status).toBe(200);
      expect(outdated.body['name']).toBe(LONG);
      // Timed out (503), then rejected.
      const slow = await server.call('PATCH', `/v3/customers/${CUSTOMER}`, { body: { tier: 'pro' } });
      expect(slow.status).toBe(503);
      late!(make());
    });
    expect(failures).toEqual([]);
    expect(logged(server, 'failed after the request timed out')).not.toEqual([]);
    expect(logged(server, 'onOutdatedValue failed')).not.toEqual([]);
    server.errors.length = 0;
  });
});

describe('the webhook dispatcher: a store that fails is logged', () => {
  it.each(CASES)('with %s', async (_, make) => {
    const lines: string[] = [];
    const app = Fastify({
      logger: {
        level: 'warn',
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      },
    });
    let claims = 0;
    let notify: () => void = () => undefined;
    const claimedTwice = new Promise<void>((resolve) => (notify = resolve));
    const delivery: Claimed = { id: 'msg_1', endpoint: 'gone', type: 'order.created', body: '{}', attempts: 0, dueAt: 0, lease: 'l' };
    const outbox: Outbox = {
      add: async () => undefined,
      // First a delivery whose completion fails, then a claim that fails.
      claim: async () => {
        claims++;
        if (claims >= 2) notify();
        if (claims === 1) return [delivery];
        throw make();
      },
      complete: () => Promise.reject(make()),
      retry: () => Promise.reject(make()),
    };
    const dispatcher = createDispatcher({ outbox, endpoints: createMemoryEndpoints(), pollInterval: 1, log: app.log });
    const failures = await processFailures(async () => {
      dispatcher.start();
      await claimedTwice;
      await dispatcher.stop();
    });
    await app.close();
    expect(failures).toEqual([]);
    expect(lines.join('')).toContain('webhook delivery failed in the dispatcher');
    expect(lines.join('')).toContain('webhook outbox could not be read');
  });
});

describe('deliveries the outbox refused, and Redis commands: a hostile failure is held, logged, or Redis away', () => {
  it.each(CASES)('with %s', async (_, make) => {
    const lines: string[] = [];
    const log = Fastify({
      logger: {
        level: 'warn',
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      },
    }).log;
    const outbox: Outbox = {
      add: () => Promise.reject(make()),
      claim: async () => [],
      complete: async () => true,
      retry: async () => true,
    };
    const delivery = { id: 'msg_1', endpoint: 'ep', type: 'order.created', body: '{}', attempts: 0, dueAt: 0 };
    const guard = createRedisGuard(1_000, 1_000, () => 0);
    const failures = await processFailures(async () => {
      // Held for another try (the change was stored), then logged as lost when the server stops.
      const deferred = createDeferredEvents(outbox, log, 1);
      expect(deferred.hold([delivery], make())).toBe('deferred');
      expect(deferred.hold([{ ...delivery, id: 'msg_2' }], make())).toBe('lost');
      await deferred.stop();
      // A client of the user's that rejects with it: Redis counts as away (the guard opens).
      await expect(guard.run(() => Promise.reject(make()))).rejects.toBeInstanceOf(RedisUnavailable);
      await expect(guard.run(async () => 'ok')).rejects.toThrow('Redis was found away a moment ago');
    });
    expect(failures).toEqual([]);
    const text = lines.join('');
    expect(text).toContain('its webhook deliveries wait in memory for another try');
    expect(text).toContain('webhook msg_2 lost: the outbox failed and 1 deliveries already wait');
    expect(text).toContain('webhook msg_1 lost: the outbox still failed when the server stopped');
  });
});
