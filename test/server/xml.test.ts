/**
 * XML end to end over HTTP, on the ledger example (`formats: ['json', 'xml']`, versions by header): every
 * resource, list page and error answered in XML to a client whose `Accept` prefers it, read back by an
 * independent parser (fast-xml-parser) equal to the JSON answer of the same request; XML bodies validated by the
 * same schemas with the same issues; XXE and other hostile XML answered 400; and, on the shop (JSON only), XML
 * bodies answered 415 and an `Accept` of XML alone 406.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromIndependentXml } from '../helpers/xml.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;
let ledger: Running;
let shop: Running;

const KEY = { 'x-api-key': 'k', 'ledger-version': '2026-03-01' };
const XML = { ...KEY, accept: 'application/xml' };

beforeAll(async () => {
  const mod = await importServer(await generateInto('xml-ledger', LEDGER_API));
  ledger = await start((app) =>
    registerOf(mod, 'Ledger')(app, mod.createMemoryHandlers(), {
      apiKeys: { k: { id: 'acct', scopes: ['ledger:read', 'ledger:write', 'webhooks:read', 'webhooks:write'] } },
      // An endpoint on this machine (nothing listens there: no delivery is awaited).
      webhooks: { allowPrivateUrls: true },
    }),
  );
  const shopMod = await importServer(await generateInto('xml-shop'));
  shop = await start((app) =>
    registerOf(shopMod, 'Shop')(app, shopMod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
});
afterAll(async () => {
  await ledger.close();
  await shop.close();
});

/** A request whose answer is read as text. */
async function raw(server: Running, method: string, path: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The same request as JSON and as XML: both answers, the XML one read back by the independent parser. */
async function twice(method: string, path: string, root: string, body?: unknown) {
  const json = await raw(ledger, method, path, { ...KEY, ...(body ? { 'content-type': 'application/json' } : {}) }, body ? JSON.stringify(body) : undefined);
  const xml = await raw(ledger, method, path, { ...XML, ...(body ? { 'content-type': 'application/json' } : {}) }, body ? JSON.stringify(body) : undefined);
  const value = JSON.parse(json.text) as unknown;
  return { json, xml, value, fromXml: fromIndependentXml(xml.text, root, value) };
}

describe('XML answers', () => {
  let account = '';
  beforeAll(async () => {
    const created = await raw(
      ledger,
      'POST',
      '/accounts',
      { ...KEY, 'content-type': 'application/json' },
      JSON.stringify({ name: 'Ada & <Co>', currency: 'EUR' }),
    );
    account = (JSON.parse(created.text) as { id: string }).id;
    for (const amountMinor of [1500, 250])
      await raw(
        ledger,
        'POST',
        '/transactions',
        { ...KEY, 'content-type': 'application/json' },
        JSON.stringify({ account_id: account, amountMinor, direction: 'credit' }),
      );
  });

  it('a resource, as the JSON answer holds it, with the same status, ETag and headers', async () => {
    const { json, xml, value, fromXml } = await twice('GET', `/accounts/${account}`, 'account');
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(fromXml).toEqual(value);
    expect(xml.headers.get('etag')).toBe(json.headers.get('etag'));
    expect(xml.headers.get('vary')).toBe('Accept, Ledger-Version');
    expect(xml.text).toContain('<name>Ada &amp; &lt;Co&gt;</name>');
  });

  it('a list page: items as <i>, a null cursor as xsi:nil', async () => {
    const { xml, value, fromXml } = await twice('GET', `/transactions?account_id=${account}`, 'transactionList');
    expect((value as { data: unknown[] }).data).toHaveLength(2);
    expect(fromXml).toEqual(value);
    expect(xml.text).toContain('<next_cursor xsi:nil="true"/>');
  });

  it('a create from a JSON body, answered in XML: 201, Location, the resource', async () => {
    const { xml, value, fromXml } = await twice('POST', '/accounts', 'account', { name: 'Grace', currency: 'GBP', overdraftLimit: 100 });
    expect(xml.status).toBe(201);
    expect(xml.headers.get('location')).toMatch(/^\/accounts\/[0-9a-f-]{36}$/);
    expect(fromXml).toEqual({ ...(value as object), id: (fromXml as { id: string }).id, createdAt: (fromXml as { createdAt: string }).createdAt });
  });

  it('a webhook endpoint created in XML: the endpoint with its secret, under the root element the documents name', async () => {
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/ledger', events: ['account.created'] });
    const created = await raw(ledger, 'POST', '/webhook_endpoints', { ...XML, 'content-type': 'application/json' }, body);
    expect(created.status, created.text).toBe(201);
    expect(created.text).toMatch(/^<\?xml[^>]*>\s*<webhookEndpoint[ >]/);
    const read = fromIndependentXml(created.text, 'webhookEndpoint', { id: '', url: '', events: [''], secret: '' }) as Record<string, unknown>;
    expect(read).toMatchObject({ url: 'http://127.0.0.1:9/ledger', events: ['account.created'], secret: expect.stringMatching(/^whsec_/) });
  });

  it('errors as application/problem+xml (RFC 9457 Appendix B), each one the JSON problem', async () => {
    for (const [method, path, headers] of [
      ['GET', `/accounts/${crypto.randomUUID()}`, {}],
      ['GET', '/accounts?limit=0', {}],
      ['GET', '/accounts', { 'x-api-key': 'wrong' }],
      ['GET', '/nowhere', {}],
      ['DELETE', '/accounts', {}],
    ] as const) {
      const json = await raw(ledger, method, path, { ...KEY, ...headers });
      const xml = await raw(ledger, method, path, { ...XML, ...headers });
      expect(xml.status, path).toBe(json.status);
      expect(xml.headers.get('content-type')).toBe('application/problem+xml; charset=utf-8');
      expect(xml.text).toContain('<problem xmlns="urn:ietf:rfc:7807">');
      const problem = JSON.parse(json.text) as unknown;
      expect(fromIndependentXml(xml.text, 'problem', problem)).toEqual(problem);
    }
  });

  it('follows Accept q-values: XML only where it is preferred; 406 when neither format is acceptable', async () => {
    const answer = async (accept: string) => (await raw(ledger, 'GET', '/accounts', { ...KEY, accept })).headers.get('content-type');
    expect(await answer('application/xml;q=0.9, application/json;q=0.8')).toBe('application/xml; charset=utf-8');
    expect(await answer('application/xml;q=0.5, application/json')).toBe('application/json; charset=utf-8');
    expect(await answer('text/xml')).toBe('text/xml; charset=utf-8');
    expect(await answer('*/*')).toBe('application/json; charset=utf-8');
    const refused = await raw(ledger, 'GET', '/accounts', { ...KEY, accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.text)).toMatchObject({
      code: 'not_acceptable',
      detail: 'This API answers application/json or application/xml, which the Accept header does not allow.',
    });
  });
});

describe('XML bodies', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    raw(ledger, 'POST', '/accounts', { ...KEY, 'content-type': 'application/xml; charset=utf-8', ...headers }, body);

  it('create a resource as their JSON twin would, numbers typed by the schema', async () => {
    const created = await post(
      '<?xml version="1.0" encoding="UTF-8"?><account><name>Linus</name><currency>USD</currency><overdraftLimit>250</overdraftLimit></account>',
    );
    expect(created.status).toBe(201);
    expect(JSON.parse(created.text)).toMatchObject({ name: 'Linus', currency: 'USD', overdraftLimit: 250 });
  });

  it('fail with the issues and pointers the JSON body gets', async () => {
    const xml = await post('<account><name></name><currency>XYZ</currency><overdraftLimit>-1</overdraftLimit><bank>x</bank></account>');
    const json = await raw(
      ledger,
      'POST',
      '/accounts',
      { ...KEY, 'content-type': 'application/json' },
      JSON.stringify({ name: '', currency: 'XYZ', overdraftLimit: -1, bank: 'x' }),
    );
    expect(xml.status).toBe(400);
    expect(JSON.parse(xml.text)).toEqual(JSON.parse(json.text));
  });

  it('answer 400 to XXE, entity expansion, a DTD of any kind, and nesting past the limit; 415 to another encoding', async () => {
    const hostile = [
      '<?xml version="1.0"?><!DOCTYPE account [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><account><name>&xxe;</name><currency>EUR</currency></account>',
      '<!DOCTYPE account [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><account><name>&b;</name></account>',
      '<!DOCTYPE account SYSTEM "http://127.0.0.1:1/evil.dtd"><account/>',
      '<account><name>&xxe;</name></account>',
      `<account>${'<x>'.repeat(100)}${'</x>'.repeat(100)}</account>`,
      '<account><name>unclosed</account>',
      '<account><name a="1">x</name></account>',
    ];
    for (const body of hostile) {
      const answer = await post(body);
      expect(answer.status, body.slice(0, 60)).toBe(400);
      expect(answer.text).not.toContain('root:');
    }
    expect((await post('<?xml version="1.0" encoding="ISO-8859-1"?><account/>')).status).toBe(415);
    expect((await post('<account/>', { 'content-type': 'application/xml; charset=latin1' })).status).toBe(415);
  });

  it('answer 413 past the body limit', async () => {
    const big = `<account><name>${'x'.repeat(1_100_000)}</name></account>`;
    expect((await post(big)).status).toBe(413);
  });
});

describe('an API without XML (the shop)', () => {
  it('answers XML bodies 415 as before, and an Accept of XML alone 406; JSON otherwise', async () => {
    const body = await raw(shop, 'POST', '/v3/customers', { authorization: 'Bearer admin', 'content-type': 'application/xml' }, '<customer/>');
    expect(body.status).toBe(415);
    const only = await raw(shop, 'GET', '/v3/customers', { authorization: 'Bearer admin', accept: 'application/xml' });
    expect(only.status).toBe(406);
    expect(only.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(only.text)).toMatchObject({ detail: 'This API answers application/json, which the Accept header does not allow.' });
    const mixed = await raw(shop, 'GET', '/v3/customers', { authorization: 'Bearer admin', accept: 'application/xml, */*;q=0.1' });
    expect([mixed.status, mixed.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
  });
});
