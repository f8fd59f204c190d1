/**
 * `restgen conformance` against `restgen serve`, the first thing the conformance guide suggests: every check of the
 * shop example passes, though serve runs stand-in migration hooks (none of them makes a value the receiving version
 * refuses: a v1 order with `reference: 42` is created, not a 500), and the report says the stand-ins were there. A
 * field made required with a fallback reads back as its fallback through the older version after a replace that
 * left it out, and conformance expects exactly that.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveApi, type Served } from '../../generator/cli/commands/serve.ts';
import type { CliIO } from '../../generator/cli/io.ts';
import { STAND_IN_HEADER as SERVE_HEADER } from '../../generator/cli/serve-stand-ins.ts';
import { loadContract } from '../../generator/conformance/contract.ts';
import { formatText, REAL_CLOCK, STAND_IN_HEADER } from '@restgen/conformance';
import { onMovingClock } from '../helpers/clock.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { conform, failureLines } from './helpers.ts';

const served: Served[] = [];
const dirs: (() => void)[] = [];
afterAll(async () => {
  await Promise.all(served.map((s) => s.app.close()));
  for (const cleanup of dirs) cleanup();
});

/** Runs `restgen serve` in this process on a free port, generating into a folder of the test's own. */
async function serve(apiPath: string): Promise<{ served: Served; err: () => string }> {
  let err = '';
  const io: CliIO = { out: () => {}, err: (t) => void (err += t), exit: () => {}, debug: false, cwd: process.cwd() };
  const { dir, cleanup } = tempDir('conformance-serve');
  dirs.push(cleanup);
  const running = await serveApi({ apiPath, port: 0, host: '127.0.0.1', outDir: path.join(dir, 'generated') }, io);
  if (!running) throw new Error(`serve failed:\n${err}`);
  served.push(running);
  return { served: running, err: () => err };
}

async function contractOf(apiPath: string) {
  const loaded = await loadContract(apiPath);
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.contract;
}

describe('conformance against restgen serve', () => {
  it('serve and the package name the stand-in hooks with the same header', () => {
    expect(SERVE_HEADER).toBe(STAND_IN_HEADER);
  });

  it("passes every check of the shop's orders, and says that serve's stand-in hooks were there", async () => {
    const { served: shop, err } = await serve(SHOP_API);
    expect(err()).toContain('v3.orders.reference: values converted between the types, and left out where they do not convert');
    // v1's reference is a number; v3's a text of a pattern no number matches: left out, not a 500.
    const customer = await fetch(`${shop.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'serve@example.com', name: 'S' }),
    });
    const order = await fetch(`${shop.url}/v1/orders`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: ((await customer.json()) as { id: string }).id, product_id: 3, qty: 1, reference: 42 }),
    });
    expect(order.status).toBe(201);
    expect(order.headers.get(STAND_IN_HEADER)).toBe('v3.customers.name, v2.orders.note, v3.orders.reference');

    // Orders carry two of the three stand-ins (and the reference that answered 500); the memory handlers' test runs
    // every collection. serve keeps the shop's rate limits (100 requests a minute): the run waits out its 429s on a
    // clock that moves Date (which the limiter reads) instead of waiting.
    const contract = await contractOf(SHOP_API);
    const report = await onMovingClock((later) =>
      conform(contract, shop.url, {
        only: ['orders'],
        maxTotalWait: 3_600_000,
        clock: {
          ...REAL_CLOCK,
          now: () => Date.now(),
          sleep: async (ms) => {
            later(ms);
            await new Promise((resolve) => setImmediate(resolve));
          },
        },
      }),
    );
    expect(failureLines(report)).toBe('');
    expect(report.incomplete).toEqual([]);
    expect(report.standIns).toEqual(['v3.customers.name', 'v2.orders.note', 'v3.orders.reference']);
    expect(formatText(report)).toContain(
      "\nnote: the server runs restgen serve's stand-in migration hooks (v3.customers.name, v2.orders.note, v3.orders.reference): the fields they convert were not compared",
    );
  }, 60_000);

  it('a field made required with a fallback: a replace through the older version that leaves it out reads back as the fallback', async () => {
    const { dir, cleanup } = tempDir('conformance-fallback');
    dirs.push(cleanup);
    writeFiles(dir, {
      'api.ts': `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'rentals',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    rentals: collection({
      fields: {
        id: f.id(),
        tool: f.string().min(1).max(50),
        site: f.string().min(1).max(50).madeRequiredIn('v2', { fallback: 'unknown' }),
      },
    }),
  },
});
`,
    });
    const api = path.join(dir, 'api.ts');
    const { served: rentals } = await serve(api);
    const report = await conform(await contractOf(api), rentals.url, { versions: ['v1'] });
    expect(failureLines(report)).toBe('');
    expect(report.results.find((r) => r.check === 'replace-complete')).toMatchObject({ status: 'passed' });
    expect(report.standIns).toEqual([]);
    // What the check expects, as an older client sees it.
    const json = { 'content-type': 'application/json' };
    const made = (await (
      await fetch(`${rentals.url}/v1/rentals`, { method: 'POST', headers: json, body: JSON.stringify({ tool: 'drill', site: 'north' }) })
    ).json()) as {
      id: string;
    };
    const replaced = await fetch(`${rentals.url}/v1/rentals/${made.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ tool: 'saw' }) });
    expect(await replaced.json()).toEqual({ id: made.id, tool: 'saw', site: 'unknown' });
  }, 60_000);
});
