/**
 * End to end over HTTP: `options.onVersionUse` is called once per request that resolved a version and got
 * past authentication, with `{ version, requested, source, collection, operation, principal, deprecated }`;
 * what it throws changes nothing. `pinnedVersion` that fails or names no version answers 500 (logged). Path
 * versioning reports source `path`, and refuses `pinnedVersion` at startup.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate } from '../server/helpers.ts';
import { startLedger, type Ledger } from './ledger.ts';

let ledger: Ledger;
beforeAll(async () => {
  ledger = await startLedger('versions-usage');
});
afterAll(() => ledger.server.close());

const call = (method: string, path: string, key: string | null, version?: string, body?: unknown) =>
  ledger.server.call(method, path, {
    token: null,
    headers: { ...(key === null ? {} : { 'x-api-key': key }), ...(version === undefined ? {} : { 'ledger-version': version }) },
    ...(body === undefined ? {} : { body }),
  });

describe('onVersionUse', () => {
  it('reports each request once, with how its version was chosen', async () => {
    const created = await call('POST', '/accounts', 'key-new', '2025-09-01', { name: 'Ada', currency: 'EUR' });
    const id = created.body['id'] as string;
    ledger.uses.length = 0;
    await call('GET', `/accounts/${id}`, 'key-new', '2025-06-30');
    await call('GET', '/accounts', 'key-old');
    await call('GET', '/transactions', 'key-new');
    await call('POST', '/transactions', 'key-dated', undefined, { account_id: id, amount: 5, direction: 'credit' });
    await call('GET', `/accounts/${id}`, 'key-new', '2026-03-01');
    expect(ledger.uses).toEqual([
      { version: '2025-01-15', requested: '2025-06-30', source: 'header', collection: 'accounts', operation: 'get', principal: 'acct-new', deprecated: true },
      { version: '2025-01-15', requested: '2025-01-15', source: 'pinned', collection: 'accounts', operation: 'list', principal: 'acct-old', deprecated: true },
      { version: '2025-09-01', requested: null, source: 'default', collection: 'transactions', operation: 'list', principal: 'acct-new', deprecated: false },
      {
        version: '2025-01-15',
        requested: '2025-05-20',
        source: 'pinned',
        collection: 'transactions',
        operation: 'create',
        principal: 'acct-dated',
        deprecated: true,
      },
      { version: '2026-03-01', requested: '2026-03-01', source: 'header', collection: 'accounts', operation: 'get', principal: 'acct-new', deprecated: false },
    ]);
  });

  it('reports transitions by name and webhook endpoints by their collection', async () => {
    ledger.uses.length = 0;
    expect((await call('GET', '/webhook_endpoints', 'key-new', '2025-09-01')).status).toBe(200);
    const disabled = await call('POST', '/webhook_endpoints/7d1c7f1e-6f0a-4b8e-9d3e-2f0c1a2b3c4d:disable', 'key-old', undefined, {});
    expect(disabled.status).toBe(404);
    expect(ledger.uses).toEqual([
      {
        version: '2025-09-01',
        requested: '2025-09-01',
        source: 'header',
        collection: 'webhook_endpoints',
        operation: 'list',
        principal: 'acct-new',
        deprecated: false,
      },
      {
        version: '2025-01-15',
        requested: '2025-01-15',
        source: 'pinned',
        collection: 'webhook_endpoints',
        operation: 'disable',
        principal: 'acct-old',
        deprecated: true,
      },
    ]);
  });

  it('reports a principal refused for lacking a scope, but no request refused before the caller is known', async () => {
    ledger.uses.length = 0;
    expect((await call('POST', '/accounts', 'key-reader', '2025-09-01', { name: 'R', currency: 'EUR' })).status).toBe(403);
    expect((await call('GET', '/accounts', null, '2025-09-01')).status).toBe(401);
    expect((await call('GET', '/accounts', 'key-unknown', '2025-09-01')).status).toBe(401);
    expect((await call('GET', '/accounts', 'key-new', 'banana')).status).toBe(400);
    ledger.setNow(Date.UTC(2026, 5, 1, 10, 30));
    expect((await call('GET', '/accounts', 'key-old')).status).toBe(410);
    ledger.setNow(Date.UTC(2026, 2, 1, 12));
    expect(ledger.uses).toEqual([
      {
        version: '2025-09-01',
        requested: '2025-09-01',
        source: 'header',
        collection: 'accounts',
        operation: 'create',
        principal: 'acct-reader',
        deprecated: false,
      },
    ]);
  });

  it('deprecated is whether the deprecation date has come', async () => {
    ledger.setNow(Date.UTC(2025, 11, 31, 23, 59));
    ledger.uses.length = 0;
    await call('GET', '/accounts', 'key-old');
    ledger.setNow(Date.UTC(2026, 0, 1));
    await call('GET', '/accounts', 'key-old');
    ledger.setNow(Date.UTC(2026, 2, 1, 12));
    expect(ledger.uses.map((u) => (u as { deprecated: boolean }).deprecated)).toEqual([false, true]);
  });
});

describe('a listener or a pin that fails', () => {
  it('an onVersionUse that throws or rejects changes no answer', async () => {
    for (const onVersionUse of [
      () => {
        throw new Error('metrics backend down');
      },
      () => Promise.reject(new Error('metrics backend down')),
    ]) {
      const other = await startLedger('versions-usage', { onVersionUse });
      try {
        const answer = await other.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old' } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ledger-version')).toBe('2025-01-15');
      } finally {
        await other.server.close();
      }
    }
  });

  it('a pin that names no version, throws, or takes too long answers 500 or 503, logged, telling nothing', async () => {
    const cases = [
      { pinnedVersion: () => '2024-01-01', status: 500 },
      { pinnedVersion: () => 'v7', status: 500 },
      {
        pinnedVersion: () => {
          throw new Error('pins table missing');
        },
        status: 500,
      },
      { pinnedVersion: () => new Promise(() => undefined), status: 503, requestTimeout: 50 },
    ];
    for (const { status, ...options } of cases) {
      const other = await startLedger('versions-usage', options);
      try {
        const answer = await other.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old' } });
        expect(answer.status).toBe(status);
        expect(JSON.stringify(answer.body)).not.toMatch(/pins table|2024-01-01|v7/);
        expect(other.server.errors.join('\n')).toContain('options.pinnedVersion');
        // With the header the pin is not asked.
        const header = await other.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old', 'ledger-version': '2025-09-01' } });
        expect(header.status).toBe(200);
      } finally {
        await other.server.close();
      }
    }
  });

  it('a sync pin works like an async one, and authenticate runs once per request', async () => {
    let authenticated = 0;
    const other = await startLedger('versions-usage', {
      apiKeys: undefined,
      authenticate: ({ token }: { token: string }) => {
        authenticated++;
        return token === 'key-old' ? { id: 'acct-old', scopes: ['ledger:read'] } : null;
      },
      pinnedVersion: (principal: { id: string } | null) => (principal?.id === 'acct-old' ? '2025-01-15' : undefined),
    });
    try {
      const answer = await other.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': 'key-old' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ledger-version')).toBe('2025-01-15');
      expect(authenticated).toBe(1);
    } finally {
      await other.server.close();
    }
  });
});

describe('path versioning (the shop example)', () => {
  it('reports source path, the version named by the path', async () => {
    const mod = await importServer(await generateInto('versions-usage-shop'));
    const uses: unknown[] = [];
    const shop = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: testAuthenticate,
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        onVersionUse: (use: unknown) => void uses.push(use),
      }),
    );
    try {
      expect((await shop.call('GET', '/v1/orders')).status).toBe(200);
      expect((await shop.call('GET', '/v3/customers', { token: null })).status).toBe(401);
      expect(uses).toEqual([{ version: 'v1', requested: 'v1', source: 'path', collection: 'orders', operation: 'list', principal: 'admin', deprecated: true }]);
    } finally {
      await shop.close();
    }
  });

  it('refuses pinnedVersion at startup, saying why', async () => {
    const mod = await importServer(await generateInto('versions-usage-shop'));
    await expect(
      registerOf(mod, 'Shop')(Fastify(), mod.createMemoryHandlers(), {
        authenticate: testAuthenticate,
        migrations: SHOP_MIGRATIONS,
        pinnedVersion: () => 'v1',
      }),
    ).rejects.toThrow(/registerShopApi: options\.pinnedVersion applies to header versioning only; this API selects the version by its path \(\/v1\/\.\.\.\)/);
  });
});
