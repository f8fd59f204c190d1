/**
 * Attack: what reaches the wire is exactly what the version's response schema allows. Write-only fields
 * nested in objects and arrays of objects, and keys a handler adds at any depth, never leave the server, in
 * any version and any operation; answers that break the schema (a handler's or a migration hook's) answer
 * 500 without details, logged with who produced which JSON pointer; with validation off, stripping stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerModule } from '../server/helpers.ts';
import { startVault, vaultServer } from './helpers.ts';

let mod: ServerModule;
beforeAll(async () => {
  mod = await vaultServer('shaping');
});

const ACCOUNT = {
  email: 'ann@example.com',
  handle: 'ann',
  login: { user: 'ann', secret: 'hunter2' },
  keys: [
    { label: 'laptop', privateKey: 'PRIVATE-1' },
    { label: 'phone', privateKey: 'PRIVATE-2' },
  ],
};
const v1Body = ({ handle, ...rest }: typeof ACCOUNT) => ({ ...rest, nick: handle });

/** Every string anywhere in a JSON value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(strings)
        : [];

describe('write-only and unknown keys at every depth', () => {
  let server: Awaited<ReturnType<typeof startVault>>;
  beforeAll(async () => {
    const handlers = mod.createMemoryHandlers();
    // A handler that adds keys of its own, at the top, in the nested object and in each array item.
    const get = handlers['accounts']!['get']!;
    handlers['accounts']!['get'] = (async (id: string, ctx: unknown) => {
      const found = (await get(id as never, ctx as never)) as Record<string, unknown>;
      if (found instanceof Error) return found;
      const keys = (found['keys'] as Record<string, unknown>[]).map((k) => ({ ...k, internal: 'INTERNAL-KEY' }));
      return { ...found, passwordHash: 'HASH', login: { ...(found['login'] as object), internal: 'INTERNAL-LOGIN' }, keys };
    }) as never;
    server = await startVault(mod, handlers);
  });
  afterAll(() => server.close());

  it.each(['v1', 'v2', 'v3'])('%s: create, get and list never answer a write-only or unknown key', async (version) => {
    const body = version === 'v1' ? v1Body({ ...ACCOUNT, email: `${version}@example.com` }) : { ...ACCOUNT, email: `${version}@example.com` };
    const created = await server.call('POST', `/${version}/accounts`, { body });
    expect(created.status).toBe(201);
    expect(created.body['login']).toEqual({ user: 'ann' });
    expect(created.body['keys']).toEqual([{ label: 'laptop' }, { label: 'phone' }]);
    const got = await server.call('GET', `/${version}/accounts/${String(created.body['id'])}`);
    expect(got.status).toBe(200);
    const listed = await server.call('GET', `/${version}/accounts?email=${version}%40example.com`);
    expect(listed.status).toBe(200);
    for (const answer of [created, got, listed]) {
      const text = JSON.stringify(answer.body);
      for (const secret of ['hunter2', 'PRIVATE-1', 'PRIVATE-2', 'HASH', 'INTERNAL-KEY', 'INTERNAL-LOGIN']) expect(text).not.toContain(secret);
      expect(strings(answer.body)).not.toContain('secret');
    }
    expect(Object.keys(got.body).sort()).toEqual(['createdAt', 'email', version === 'v1' ? 'nick' : 'handle', 'id', 'keys', 'login', 'tier'].sort());
  });
});

describe('answers that break the response schema', () => {
  const broken: Record<string, unknown> = {};
  let server: Awaited<ReturnType<typeof startVault>>;
  beforeAll(async () => {
    const handlers = mod.createMemoryHandlers();
    const base = {
      id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
      email: 'x@example.com',
      handle: 'x',
      login: { user: 'x' },
      keys: [],
      tier: 'free',
      createdAt: '2026-01-01T00:00:00Z',
    };
    handlers['accounts']!['get'] = (() => broken['get']) as never;
    handlers['accounts']!['create'] = (() => broken['create']) as never;
    handlers['accounts']!['list'] = (() => broken['list']) as never;
    broken['base'] = base;
    server = await startVault(mod, handlers);
  });
  afterAll(() => server.close());

  const expect500 = async (method: string, path: string, pointer: string, source: string, body?: unknown) => {
    const before = server.logs.length;
    const answer = await server.call(method, path, body === undefined ? {} : { body });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.body).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'The server failed to answer; the error has been logged.',
      code: 'internal_error',
    });
    const logged = server.logs.slice(before).find((l) => l['pointer'] !== undefined);
    expect(logged).toMatchObject({ source, pointer });
  };
  const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';

  it('a wrong type (email: 12345) answers 500, logged with the handler and the pointer', async () => {
    broken['get'] = { ...(broken['base'] as object), email: 12345 };
    await expect500('GET', `/v3/accounts/${ID}`, '#/email', 'handlers.accounts.get');
  });

  it('an array instead of a resource answers 500', async () => {
    broken['get'] = [broken['base']];
    await expect500('GET', `/v2/accounts/${ID}`, '#', 'handlers.accounts.get');
  });

  it('a create without an id answers 500 and no Location (never /v2/accounts/undefined)', async () => {
    const { id: _id, ...noId } = broken['base'] as Record<string, unknown>;
    broken['create'] = noId;
    await expect500('POST', '/v2/accounts', '#/id', 'handlers.accounts.create', {
      email: 'n@example.com',
      handle: 'n',
      login: { user: 'n', secret: 's' },
      keys: [],
    });
  });

  it('a list whose item breaks the schema answers 500 with the item pointer', async () => {
    // A value of another type (an enum value no longer listed is older data, answered: test/runtime/older-data.test.ts).
    broken['list'] = { data: [broken['base'], { ...(broken['base'] as object), tier: 42 }], next_cursor: null };
    await expect500('GET', '/v3/accounts', '#/data/1/tier', 'handlers.accounts.list');
    broken['list'] = { data: null, next_cursor: null };
    await expect500('GET', '/v3/accounts', '#/data', 'handlers.accounts.list');
  });

  it("a list that answers more items than the limit asked for (and the document's maxItems) answers 500", async () => {
    const item = (i: number) => ({ ...(broken['base'] as object), id: `6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d${String(i).padStart(2, '0')}` });
    // A handler that ignores `query.limit`: the vault's accounts have maxLimit 5, which the document declares as maxItems.
    broken['list'] = { data: Array.from({ length: 8 }, (_, i) => item(i)), next_cursor: null };
    await expect500('GET', '/v3/accounts?limit=5', '#/data', 'handlers.accounts.list');
    await expect500('GET', '/v3/accounts?limit=3', '#/data', 'handlers.accounts.list');
    broken['list'] = { data: [item(1), item(2), item(3)], next_cursor: null };
    expect((await server.call('GET', '/v3/accounts?limit=3')).status).toBe(200);
  });

  it('a down hook that produces a value the old version rejects is named in the log', async () => {
    broken['get'] = { ...(broken['base'] as object), code: 'AB-1234' };
    const server2 = await startVault(
      mod,
      { ...mod.createMemoryHandlers(), accounts: { ...mod.createMemoryHandlers()['accounts'], get: () => broken['get'] } },
      {
        migrations: { v3: { accounts: { code: { up: (n: number) => `CD-${n}`, down: () => -1 } } } },
      },
    );
    try {
      const answer = await server2.call('GET', `/v2/accounts/${ID}`);
      expect(answer.status).toBe(500);
      expect(server2.logs.find((l) => l['pointer'] === '#/code')).toMatchObject({ source: 'migrations.v3.accounts.code.down', version: 'v2' });
    } finally {
      await server2.close();
    }
  });

  it('an up hook that produces a value the newest version rejects never reaches the handler', async () => {
    // The README's first hook, `up: (n) => \`RF-${n}\``, gives "RF-7" where the pattern wants four digits.
    let created = 0;
    const handlers = mod.createMemoryHandlers();
    const create = handlers['accounts']!['create']!;
    handlers['accounts']!['create'] = ((body: never, ctx: never) => (created++, create(body, ctx))) as never;
    const server2 = await startVault(mod, handlers, {
      migrations: { v3: { accounts: { code: { up: (n: number) => `CD-${n}`, down: (s: string) => Number(s.slice(3)) } } } },
    });
    try {
      const answer = await server2.call('POST', '/v2/accounts', {
        body: { email: 'c@example.com', handle: 'c', login: { user: 'c', secret: 's' }, keys: [], code: 7 },
      });
      expect(answer.status).toBe(500);
      expect(created).toBe(0);
      expect(server2.logs.find((l) => l['pointer'] === '#/code')).toMatchObject({ source: 'migrations.v3.accounts.code.up', version: 'v2', schema: 'v3' });
    } finally {
      await server2.close();
    }
  });
});

describe('validateResponses: false', () => {
  it('still removes write-only and unknown keys at every depth, and checks no value', async () => {
    const handlers = mod.createMemoryHandlers();
    handlers['accounts']!['get'] = (() => ({
      id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
      email: 12345,
      handle: { nested: 'OBJECT-IN-A-STRING-FIELD' },
      login: { user: 'u', secret: 'hunter2', extra: 1 },
      keys: [{ label: 'k', privateKey: 'PRIVATE' }],
      tier: 'free',
      createdAt: '2026-01-01T00:00:00Z',
      passwordHash: 'HASH',
    })) as never;
    const server = await startVault(mod, handlers, { validateResponses: false });
    try {
      const answer = await server.call('GET', '/v3/accounts/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
        email: 12345,
        login: { user: 'u' },
        keys: [{ label: 'k' }],
        tier: 'free',
        createdAt: '2026-01-01T00:00:00Z',
      });
    } finally {
      await server.close();
    }
  });
});
