/**
 * `restgen serve`: generates the example, runs it on the in-memory handlers with any token accepted, keeps
 * uploads in a folder of its own, and stops on SIGINT (removing that folder). Run as a child process, as a user
 * runs it: the built command line (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it, onTestFailed } from 'vitest';
import { createStandInMigrations } from '../../generator/cli/serve-stand-ins.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { HEADER_API } from './helpers.ts';
import { SHOP_API, loadIr } from '../helpers/load-ir.ts';

const BIN = new URL('../../bin/restgen.js', import.meta.url).pathname;
const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;

/** Starts the fixture CLI; resolves with the URL it prints, the output so far, and a way to stop it. */
function runServe(args: string[]): Promise<{ url: string; out: () => string; err: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: new URL('../../', import.meta.url).pathname });
  let out = '';
  let err = '';
  // A failure (a timeout included) shows what the server printed up to then, and whether it is still running.
  onTestFailed(() => {
    process.stderr.write(
      `restgen serve ${args.join(' ')} (pid ${child.pid}, ${child.exitCode === null ? 'still running' : `exited ${child.exitCode}`}):\n${out}\n${err}\n`,
    );
    child.kill('SIGKILL');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // The whole port: a chunk may end inside it.
      const url = /(http:\/\/127\.0\.0\.1:\d+)[\s/]/.exec(out)?.[1];
      if (url) resolve({ url, out: () => out, err: () => err, stop: () => (child.kill('SIGINT'), exited) });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${out}\n${err}`)));
  });
}

describe('restgen serve', () => {
  it('serves the shop example on a free port, accepts any token with every scope, and stops on SIGINT', async () => {
    const served = await runServe([SHOP_API, '--port', '0']);
    let filesDir = '';
    try {
      expect(served.out()).toContain('v1, sunset 2027-03-01: /v1/customers  /v1/orders');
      expect(served.out()).toContain('v3, unreleased: /v3/customers  /v3/orders  /v3/coupons');
      const created = await fetch(`${served.url}/v1/customers`, {
        method: 'POST',
        headers: { authorization: 'Bearer anything', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', name: 'A' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const order = await fetch(`${served.url}/v2/orders`, {
        method: 'POST',
        headers: { 'x-api-key': 'whatever', 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: id, product_id: 1, quantity: 2 }),
      });
      expect(order.status).toBe(201);
      expect(await order.json()).toMatchObject({ quantity: 2, currency: 'EUR', status: 'open' });
      expect((await fetch(`${served.url}/v3/customers`)).status).toBe(401);
      // The OpenAPI documents are generated into the cache folder beside the server, and served.
      const document = await fetch(`${served.url}/v2/openapi.json`);
      expect(document.status).toBe(200);
      expect(((await document.json()) as { info: { version: string } }).info.version).toBe('v2');
      expect(served.err()).toContain('stand-in migration hooks');
      // Orders have an invoice from v3: uploads go to a folder of the server's own, which it removes when it stops.
      const form = new FormData();
      form.append('invoice', new Blob(['%PDF-1.7\n'], { type: 'application/pdf' }), 'inv.pdf');
      const v3order = (await (
        await fetch(`${served.url}/v3/orders`, {
          method: 'POST',
          headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
          body: JSON.stringify({ customer_id: id, product_id: 1, quantity: 1 }),
        })
      ).json()) as { id: string };
      const uploaded = await fetch(`${served.url}/v3/orders/${v3order.id}`, { method: 'PATCH', headers: { authorization: 'Bearer x' }, body: form });
      expect(uploaded.status).toBe(200);
      const download = await fetch(`${served.url}/v3/orders/${v3order.id}/invoice`, { headers: { authorization: 'Bearer x' } });
      expect([download.headers.get('content-type'), await download.text()]).toEqual(['application/pdf', '%PDF-1.7\n']);
      filesDir = /files: uploads are kept in (\S+) until the server stops/.exec(served.out())?.[1] ?? '';
      expect(readdirSync(filesDir, { recursive: true }).length).toBeGreaterThan(0);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(existsSync(filesDir)).toBe(false);
  }, 60_000);

  it('delivers webhooks to an endpoint on this machine (private URLs allowed in serve)', async () => {
    const receiver = await startReceiver();
    const served = await runServe([SHOP_API, '--port', '0']);
    try {
      expect(served.out()).toContain('webhooks: POST an endpoint to /<version>/webhook_endpoints');
      const json = { authorization: 'Bearer anything', 'content-type': 'application/json' };
      const endpoint = await fetch(`${served.url}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['order.created'] }),
      });
      expect(endpoint.status).toBe(201);
      const customer = (await (
        await fetch(`${served.url}/v1/customers`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'w@example.com', name: 'W' }) })
      ).json()) as { id: string };
      await fetch(`${served.url}/v2/orders`, { method: 'POST', headers: json, body: JSON.stringify({ customer_id: customer.id, product_id: 1, quantity: 5 }) });
      const [got] = await receiver.waitFor('/hook', 1);
      expect(JSON.parse(got!.body)).toMatchObject({ type: 'order.created', data: { qty: 5 } });
    } finally {
      expect(await served.stop()).toBe(0);
      await receiver.close();
    }
  }, 60_000);

  it('serves a header-versioned API', async () => {
    const served = await runServe([HEADER_API, '--port', '0']);
    try {
      expect(served.out()).toContain('choose a version with the Api-Version header');
      expect((await fetch(`${served.url}/notes`, { headers: { 'api-version': '2025-06' } })).status).toBe(200);
      expect((await fetch(`${served.url}/notes`)).status).toBe(400);
      const document = await fetch(`${served.url}/openapi.json`, { headers: { 'api-version': '2025-01' } });
      expect(((await document.json()) as { info: { version: string } }).info.version).toBe('2025-01');
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('names the webhook endpoints route of a header-versioned API as a client calls it', async () => {
    const served = await runServe([LEDGER_API, '--port', '0']);
    try {
      expect(served.out()).toContain('webhooks: POST an endpoint to /webhook_endpoints with the Ledger-Version header;');
      const headers = { 'x-api-key': 'any', 'content-type': 'application/json', 'ledger-version': '2025-09-01' };
      const body = JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['account.created'] });
      const created = await fetch(`${served.url}/webhook_endpoints`, { method: 'POST', headers, body });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ version: '2025-09-01' });
      // What the banner said before: the version is not a path segment of a header-versioned API.
      expect((await fetch(`${served.url}/2025-09-01/webhook_endpoints`, { method: 'POST', headers, body })).status).toBe(404);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 60_000);

  it('stand-in hooks convert between the types of a changed field, never into a value the other version refuses', async () => {
    const { migrations, stands } = createStandInMigrations(await loadIr());
    expect(stands.map((s) => s.id)).toEqual(['v3.customers.name', 'v2.orders.note', 'v3.orders.reference']);
    const reference = migrations['v3']!['orders']!['reference']!;
    // "12" breaks v3's pattern (^[A-Z]{2}-\d{4,16}$): the optional field is left out (a PATCH keeps what is stored).
    expect(reference['up']!(12)).toBeUndefined();
    expect(reference['down']!('AB-1234')).toBe(1234);
    expect(migrations['v3']!['customers']!['name']!['whenMissing']!()).toBe('unknown');
  });
});
