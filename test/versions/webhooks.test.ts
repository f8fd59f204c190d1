/**
 * End to end over HTTP with a receiver on loopback: a webhook endpoint created without the version header
 * is pinned to the version the request resolved to (the principal's pin, or the default; a dated header to
 * the version it resolves to), and receives its events in that version's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { startLedger, type Ledger } from './ledger.ts';

let ledger: Ledger;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  ledger = await startLedger('versions-webhooks', { webhooks: { allowPrivateUrls: true, pollInterval: 20, retrySchedule: [50], jitter: 0 } });
});
afterAll(async () => {
  await ledger?.server.close();
  await receiver?.close();
});

const call = (method: string, path: string, key: string, version?: string, body?: unknown) =>
  ledger.server.call(method, path, {
    token: null,
    headers: { 'x-api-key': key, ...(version === undefined ? {} : { 'ledger-version': version }) },
    ...(body === undefined ? {} : { body }),
  });

describe('webhook endpoints created without an explicit version', () => {
  it("are pinned to the version the request resolved to, and receive that version's shape", async () => {
    const subscribe = async (key: string, path: string, version?: string) => {
      const created = await call('POST', '/webhook_endpoints', key, version, { url: receiver.url + path, events: ['account.created'] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created;
    };
    const pinned = await subscribe('key-old', '/pinned');
    expect(pinned.body['version']).toBe('2025-01-15');
    expect(pinned.headers.get('ledger-version')).toBe('2025-01-15');
    const byDefault = await subscribe('key-new', '/default');
    expect(byDefault.body['version']).toBe('2025-09-01');
    const dated = await subscribe('key-new', '/dated', '2025-07-04');
    expect(dated.body['version']).toBe('2025-01-15');
    const read = await call('GET', `/webhook_endpoints/${pinned.body['id'] as string}`, 'key-new');
    expect(read.body['version']).toBe('2025-01-15');

    const account = await call('POST', '/accounts', 'key-new', '2025-09-01', { name: 'Ada', currency: 'GBP', overdraftLimit: 100 });
    expect(account.status).toBe(201);
    const id = account.body['id'] as string;
    const data = async (path: string) => JSON.parse((await receiver.waitFor(path, 1))[0]!.body) as { type: string; data: Record<string, unknown> };
    const old = await data('/pinned');
    expect(old.type).toBe('account.created');
    expect(old.data).toEqual({ id, holder: 'Ada', currency: 'GBP', createdAt: account.body['createdAt'] });
    expect((await data('/dated')).data).toHaveProperty('holder', 'Ada');
    expect((await data('/default')).data).toEqual({ id, name: 'Ada', currency: 'GBP', overdraftLimit: 100, createdAt: account.body['createdAt'] });
  });
});
