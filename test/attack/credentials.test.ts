/**
 * Attack: credential guessing and the challenges. Rejected credentials count per client address: over the
 * limit the server answers 429 (with Retry-After) before `authenticate` is called again. `WWW-Authenticate`
 * carries one challenge per scheme, with RFC 6750's error parameters inside the challenge of the scheme the
 * client used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerModule } from '../server/helpers.ts';
import { authenticate, startVault, vaultServer } from './helpers.ts';

let mod: ServerModule;
beforeAll(async () => {
  mod = await vaultServer('credentials');
});

describe('credential guessing', () => {
  let calls = 0;
  let server: Awaited<ReturnType<typeof startVault>>;
  beforeAll(async () => {
    server = await startVault(mod, mod.createMemoryHandlers(), {
      authenticate: (c: { token: string }) => (calls++, authenticate(c)),
      authFailures: { max: 10, windowMs: 60_000 },
    });
  });
  afterAll(() => server.close());

  it('300 wrong tokens from one address: 10 reach authenticate, the rest answer 429 first', async () => {
    calls = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 300; i += 30)
      statuses.push(
        ...(await Promise.all(Array.from({ length: 30 }, (_, j) => server.call('GET', '/v3/accounts', { token: `guess-${i + j}` })))).map((a) => a.status),
      );
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(290);
    expect(calls).toBe(10);
    const limited = await server.call('GET', '/v3/accounts', { token: 'guess-again' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'too_many_failed_credentials' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A valid credential from the same address is refused as well until the window ends: the limit is per address.
    expect((await server.call('GET', '/v3/accounts', { token: 'admin' })).status).toBe(429);
    expect(calls).toBe(10);
    // Requests without a credential are not guesses.
    expect((await server.call('GET', '/v3/events', { token: null })).status).toBe(200);
  });

  it('100 concurrent wrong tokens against a slow authenticate: no more than the limit reach it', async () => {
    let slowCalls = 0;
    // A real authenticate looks the token up (a database, an introspection endpoint): it takes a while, and
    // every guess sent meanwhile must not pass the check the first ones have not failed yet.
    const slow = await startVault(mod, mod.createMemoryHandlers(), {
      authenticate: async (c: { token: string }) => (slowCalls++, await new Promise((r) => setTimeout(r, 100)), authenticate(c)),
      authFailures: { max: 10, windowMs: 60_000 },
    });
    try {
      const statuses = (await Promise.all(Array.from({ length: 100 }, (_, i) => slow.call('GET', '/v3/accounts', { token: `guess-${i}` })))).map(
        (a) => a.status,
      );
      expect(slowCalls).toBe(10);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    } finally {
      await slow.close();
    }
  });

  it('valid credentials checked concurrently are never refused: a check holds its place only while it runs', async () => {
    let slowCalls = 0;
    const slow = await startVault(mod, mod.createMemoryHandlers(), {
      authenticate: async (c: { token: string }) => (slowCalls++, await new Promise((r) => setTimeout(r, 50)), authenticate(c)),
      authFailures: { max: 3, windowMs: 60_000 },
    });
    try {
      // 12 at once with room for 3 checks: the others wait for a place, none is refused.
      const statuses = (await Promise.all(Array.from({ length: 12 }, () => slow.call('GET', '/v3/accounts', { token: 'admin' })))).map((a) => a.status);
      expect(statuses).toEqual(Array.from({ length: 12 }, () => 200));
      expect(slowCalls).toBe(12);
      // Two rejections leave room for one check at a time; a valid credential still passes.
      for (let i = 0; i < 2; i++) expect((await slow.call('GET', '/v3/accounts', { token: 'bad' })).status).toBe(401);
      const after = (await Promise.all(Array.from({ length: 4 }, () => slow.call('GET', '/v3/accounts', { token: 'admin' })))).map((a) => a.status);
      expect(after).toEqual([200, 200, 200, 200]);
    } finally {
      await slow.close();
    }
  });

  it('the window ends and credentials are checked again', async () => {
    const short = await startVault(mod, mod.createMemoryHandlers(), { authFailures: { max: 2, windowMs: 300 } });
    try {
      for (let i = 0; i < 2; i++) expect((await short.call('GET', '/v3/accounts', { token: 'bad' })).status).toBe(401);
      expect((await short.call('GET', '/v3/accounts', { token: 'admin' })).status).toBe(429);
      await new Promise((r) => setTimeout(r, 350));
      expect((await short.call('GET', '/v3/accounts', { token: 'admin' })).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('authenticate that rejects with a 401 problem', () => {
  it('counts as a rejected credential and carries the challenge, like a null', async () => {
    let calls = 0;
    const HttpProblem = mod['HttpProblem'] as new (status: number, code: string, detail: string) => Error;
    const server = await startVault(mod, mod.createMemoryHandlers(), {
      // Rejecting with its own wording instead of returning null.
      authenticate: (c: { token: string }) => {
        calls++;
        if (c.token.startsWith('guess')) throw new HttpProblem(401, 'unknown_token', 'This token is not known.');
        return authenticate(c);
      },
      authFailures: { max: 5, windowMs: 60_000 },
    });
    try {
      const first = await server.call('GET', '/v3/accounts', { token: 'guess-0' });
      expect(first.status).toBe(401);
      expect(first.body).toMatchObject({ code: 'unknown_token', detail: 'This token is not known.' });
      expect(first.headers.get('www-authenticate')).toBe('Bearer realm="vault", error="invalid_token", ApiKey realm="vault", header="X-API-Key"');
      const statuses: number[] = [];
      for (let i = 1; i < 30; i++) statuses.push((await server.call('GET', '/v3/accounts', { token: `guess-${i}` })).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      expect(calls).toBe(5);
    } finally {
      await server.close();
    }
  });
});

describe('credential guessing from IPv6 addresses', () => {
  it('counts a /64 network as one client: rotating addresses inside it does not reset the count, another network is not blocked', async () => {
    let calls = 0;
    // Behind a proxy (trustProxy): the client address is the one X-Forwarded-For names.
    const server = await startVault(
      mod,
      mod.createMemoryHandlers(),
      { authenticate: (c: { token: string }) => (calls++, authenticate(c)), authFailures: { max: 5, windowMs: 60_000 } },
      { trustProxy: true },
    );
    try {
      const from = (ip: string, token: string) => server.call('GET', '/v3/accounts', { token, headers: { 'x-forwarded-for': ip } });
      const statuses: number[] = [];
      for (let i = 1; i <= 40; i++) statuses.push((await from(`2001:db8:7:1:${i.toString(16)}::${i}`, `guess-${i}`)).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(35);
      expect(calls).toBe(5);
      // The same network written another way is the same client.
      expect((await from('2001:0db8:0007:0001:ffff:ffff:ffff:ffff', 'admin')).status).toBe(429);
      // The next /64 is another client.
      expect((await from('2001:db8:7:2::1', 'admin')).status).toBe(200);
      // An IPv4 client and its IPv4-mapped IPv6 form are one client.
      for (let i = 0; i < 5; i++) expect((await from('203.0.113.9', 'bad')).status).toBe(401);
      expect((await from('::ffff:203.0.113.9', 'admin')).status).toBe(429);
      expect((await from('203.0.113.10', 'admin')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('authFailures: false', () => {
  it('never limits rejected credentials', async () => {
    let calls = 0;
    const server = await startVault(mod, mod.createMemoryHandlers(), {
      authenticate: (c: { token: string }) => (calls++, authenticate(c)),
      authFailures: false,
    });
    try {
      for (let i = 0; i < 30; i++) expect((await server.call('GET', '/v3/accounts', { token: 'bad' })).status).toBe(401);
      expect(calls).toBe(30);
    } finally {
      await server.close();
    }
  });
});

describe('WWW-Authenticate', () => {
  let server: Awaited<ReturnType<typeof startVault>>;
  beforeAll(async () => {
    server = await startVault(mod, mod.createMemoryHandlers(), {
      authenticate: ({ token }: { token: string }) =>
        token === 'bad' ? null : token === 'reader' ? { id: 'r', scopes: ['accounts:read'] } : { id: token, scopes: [] },
    });
  });
  afterAll(() => server.close());

  it('without a credential: one challenge per scheme, no error', async () => {
    const answer = await server.call('GET', '/v3/accounts', { token: null });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="vault", ApiKey realm="vault", header="X-API-Key"');
  });

  it('a rejected bearer token: error="invalid_token" inside the Bearer challenge (RFC 6750)', async () => {
    const answer = await server.call('GET', '/v3/accounts', { token: 'bad' });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="vault", error="invalid_token", ApiKey realm="vault", header="X-API-Key"');
  });

  it('a rejected API key: the error belongs to the ApiKey challenge', async () => {
    const answer = await server.call('GET', '/v3/accounts', { token: null, headers: { 'x-api-key': 'bad' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="vault", ApiKey realm="vault", header="X-API-Key", error="invalid_token"');
  });

  it('a missing scope: 403 with insufficient_scope and the scope inside the Bearer challenge', async () => {
    const answer = await server.call('POST', '/v3/accounts', { token: 'reader', body: {} });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer realm="vault", error="insufficient_scope", scope="accounts:write", ApiKey realm="vault", header="X-API-Key"',
    );
  });
});
