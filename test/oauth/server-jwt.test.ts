/**
 * The generated server verifying JWT access tokens (`options.jwt`) against a real JWKS endpoint on loopback,
 * with keys made by jose in the test: valid tokens (scope and scp), every way a token fails (401
 * `invalid_token` with a reason and nothing internal), a missing scope (403), an unknown kid and a key
 * rotation (refetched at most once per cooldown), an identity provider that is down (503 with Retry-After,
 * never a pass), `authenticate` after verification, and the failed-credential limit.
 */
import type { FastifyInstance } from 'fastify';
import { SignJWT, UnsecuredJWT, exportSPKI } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onMovingClock } from '../helpers/clock.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Register, type Running, type ServerModule } from '../server/helpers.ts';
import { AUDIENCE, ISSUER, makeKey, signToken, startJwks, type JwksServer, type TestKey } from './jwks-server.ts';

let mod: ServerModule;
let register: Register;
let jwks: JwksServer;
let keyA: TestKey;
let keyB: TestKey;
const running: Running[] = [];
/** Principals the customers.list handler saw. */
const seen: unknown[] = [];

/** Starts the shop server verifying JWTs with `jwt` (the JWKS of the test by default) and more options. */
async function serve(jwt: object = {}, options: object = {}): Promise<Running> {
  const handlers = mod.createMemoryHandlers();
  const list = handlers['customers']!['list']!;
  handlers['customers']!['list'] = (query: never, ctx: never) => {
    seen.push((ctx as { principal: unknown }).principal);
    return list(query, ctx);
  };
  const server = await start((app: FastifyInstance) =>
    register(app, handlers, {
      jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwksCooldown: 400, ...jwt },
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      authFailures: false,
      ...options,
    }),
  );
  running.push(server);
  return server;
}

const challengeOf = (headers: Headers): string => headers.get('www-authenticate') ?? '';

beforeAll(async () => {
  mod = await importServer(await generateInto('oauth-jwt'));
  register = registerOf(mod, 'Shop');
  [keyA, keyB] = await Promise.all([makeKey('key-a'), makeKey('key-b', 'ES256')]);
  jwks = await startJwks([keyA]);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await jwks.close();
});

describe('JWT access tokens against a JWKS endpoint', () => {
  let api: Running;
  beforeAll(async () => {
    api = await serve();
  });

  it('accepts a valid token: the principal is sub, with the scopes of `scope` and the claims', async () => {
    const token = await signToken(keyA, { sub: 'alice', tenant: 't-7' });
    const answer = await api.call('GET', '/v2/customers', { token });
    expect(answer.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      id: 'alice',
      scopes: ['orders:read', 'orders:write', 'customers:read', 'customers:write'],
      claims: { tenant: 't-7', iss: ISSUER },
    });
  });

  it('reads scopes from `scp` as an array', async () => {
    const token = await signToken(keyA, { scope: undefined, scp: ['customers:read'] });
    expect((await api.call('GET', '/v2/customers', { token })).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ scopes: ['customers:read'] });
    // customers:write is missing: 403 naming the scope (RFC 6750 insufficient_scope).
    const denied = await api.call('POST', '/v2/customers', { token, body: { email: 'scp@example.com', name: 'S' } });
    expect(denied.status).toBe(403);
    expect(challengeOf(denied.headers)).toContain('error="insufficient_scope", scope="customers:write"');
    expect(denied.body).toMatchObject({ code: 'insufficient_scope', scopes: ['customers:write'] });
  });

  it('answers a missing scope with 403 insufficient_scope naming it', async () => {
    const token = await signToken(keyA, { scope: 'orders:read' });
    const answer = await api.call('GET', '/v2/customers', { token });
    expect(answer.status).toBe(403);
    expect(challengeOf(answer.headers)).toMatch(/^Bearer realm="shop", error="insufficient_scope", scope="customers:read"/);
  });

  const rejected: [string, () => Promise<string>, string][] = [
    ['an expired token', () => signToken(keyA, { exp: Math.floor(Date.now() / 1000) - 120 }), 'The access token expired.'],
    ['a token of another issuer', () => signToken(keyA, { iss: 'https://evil.example/' }), 'The access token was not issued by the expected issuer.'],
    ['a token for another audience', () => signToken(keyA, { aud: 'https://api.other.example/' }), 'The access token is not meant for this API.'],
    ['a token that is not valid yet', () => signToken(keyA, { nbf: Math.floor(Date.now() / 1000) + 600 }), 'The access token is not valid yet.'],
    ['a token without sub', () => signToken(keyA, { sub: undefined }), 'The access token has no sub claim.'],
    ['a token without exp', () => signToken(keyA, { exp: undefined }), 'The access token has no exp claim.'],
    [
      'an unsigned token (alg: none)',
      async () => new UnsecuredJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', exp: Math.floor(Date.now() / 1000) + 600, scope: 'customers:read' }).encode(),
      "The access token's signing algorithm is not accepted.",
    ],
    [
      'an HS256 token forged with the public key as the secret',
      async () => {
        const secret = new TextEncoder().encode(await exportSPKI(keyA.publicKey));
        return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', scope: 'customers:read' })
          .setProtectedHeader({ alg: 'HS256', kid: keyA.kid })
          .setExpirationTime('10m')
          .sign(secret);
      },
      "The access token's signing algorithm is not accepted.",
    ],
    ['a token whose signature was altered', async () => (await signToken(keyA)).replace(/.{8}$/, 'AAAAAAAA'), "The access token's signature is not valid."],
    ['text that is not a JWT', async () => 'not-a-jwt', 'The access token is not a valid JWT.'],
  ];

  it.each(rejected)('rejects %s: 401 invalid_token with the reason, nothing internal', async (_, make, reason) => {
    const answer = await api.call('GET', '/v2/customers', { token: await make() });
    expect(answer.status).toBe(401);
    expect(challengeOf(answer.headers)).toBe(
      `Bearer realm="shop", error="invalid_token", error_description="${reason}", ApiKey realm="shop", header="X-API-Key"`,
    );
    expect(answer.body).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: reason, code: 'invalid_token' });
    expect(api.errors).toEqual([]);
  });

  it('remembers a verified token never past its exp: a token that expires is refused at once', () =>
    onMovingClock(async (later) => {
      const token = await signToken(keyA, { exp: Math.floor(Date.now() / 1000) + 2 });
      expect((await api.call('GET', '/v2/customers', { token })).status).toBe(200);
      expect((await api.call('GET', '/v2/customers', { token })).status).toBe(200);
      later(2100);
      const expired = await api.call('GET', '/v2/customers', { token });
      expect(expired.status).toBe(401);
      expect(challengeOf(expired.headers)).toContain('error_description="The access token expired."');
    }));

  it('rejects an unknown kid until the cooldown passed, then refetches the rotated key set once', () =>
    onMovingClock(async (later) => {
      const rotated = await signToken(keyB, { sub: 'bob' });
      const unknown = await signToken(await makeKey('key-c', 'ES256'));
      // Load the key set (a fetch may or may not be needed, depending on the tests before).
      expect((await api.call('GET', '/v2/customers', { token: await signToken(keyA) })).status).toBe(200);
      later(450);
      jwks.setKeys([keyA, keyB]);
      const before = jwks.fetches();
      expect((await api.call('GET', '/v2/customers', { token: rotated })).status).toBe(200);
      expect(jwks.fetches()).toBe(before + 1);
      // An unknown kid right after a fetch is refused without asking the endpoint again (rate-limited refetch).
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.call('GET', '/v2/customers', { token: unknown })));
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
      expect(challengeOf(answers[0]!.headers)).toContain('error_description="No signing key of the issuer matches the access token."');
      expect(jwks.fetches()).toBe(before + 1);
      // After the cooldown one more fetch is allowed for the unknown kid, however many requests carry it.
      later(450);
      await Promise.all(Array.from({ length: 5 }, () => api.call('GET', '/v2/customers', { token: unknown })));
      expect(jwks.fetches()).toBe(before + 2);
      jwks.setKeys([keyA]);
    }));
});

describe('an identity provider that cannot be reached', () => {
  it('answers 503 with Retry-After when the JWKS endpoint is down, never a pass or a 500', async () => {
    const down = await startJwks([keyA]);
    const url = down.url;
    await down.close();
    const api = await serve({ jwksUrl: url });
    const answer = await api.call('GET', '/v2/customers', { token: await signToken(keyA) });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body).toMatchObject({ code: 'idp_unavailable' });
    expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
    expect(api.errors.join('')).toContain('options.jwt');
  });

  it('answers 503 when the JWKS endpoint fails (500), and verifies again once it is back', async () => {
    const flaky = await startJwks([keyA]);
    try {
      flaky.failWith(500);
      const api = await serve({ jwksUrl: flaky.url });
      const token = await signToken(keyA);
      expect((await api.call('GET', '/v2/customers', { token })).status).toBe(503);
      flaky.failWith(null);
      expect((await api.call('GET', '/v2/customers', { token })).status).toBe(200);
    } finally {
      await flaky.close();
    }
  });

  it('asks a failing JWKS endpoint again at most once per cooldown, however many unknown kids arrive', async () => {
    const flaky = await startJwks([keyA]);
    try {
      await onMovingClock(async (later) => {
        const api = await serve({ jwksUrl: flaky.url, jwksCooldown: 60_000, jwksMaxAge: 3_600_000 });
        expect((await api.call('GET', '/v2/customers', { token: await signToken(keyA) })).status).toBe(200);
        const loaded = flaky.fetches();
        // The cooldown after the first load has passed.
        later(60_001);
        flaky.failWith(500);
        const unknown = await signToken(await makeKey('key-d', 'ES256'));
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) statuses.push((await api.call('GET', '/v2/customers', { token: unknown })).status);
        // One refetch for the first unknown kid (it fails: 503); the rest wait out the cooldown (401).
        expect(flaky.fetches()).toBe(loaded + 1);
        expect(statuses).toEqual([503, 401, 401, 401, 401]);
      });
    } finally {
      await flaky.close();
    }
  });

  it('answers 503 when the JWKS endpoint does not answer within jwksTimeout', async () => {
    const { createServer } = await import('node:http');
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer(() => undefined);
    silent.on('connection', (s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as import('node:net').AddressInfo).port;
      const api = await serve({ jwksUrl: `http://127.0.0.1:${port}/jwks`, jwksTimeout: 200 });
      // The endpoint never answers: the 503 comes once the fetch of the keys gives up.
      expect((await api.call('GET', '/v2/customers', { token: await signToken(keyA) })).status).toBe(503);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('authenticate after verification, API keys, and the failed-credential limit', () => {
  it('passes the verified principal to authenticate, which may enrich or refuse it', async () => {
    const api = await serve(
      {},
      {
        authenticate: (credential: { scheme: string; token: string; verified?: { id: string; scopes: string[] } }) => {
          if (credential.scheme === 'apiKey') return credential.token === 'key-1' ? { id: 'service', scopes: ['customers:read'] } : null;
          if (credential.verified?.id === 'blocked') return null;
          return credential.verified ? { ...credential.verified, scopes: [...credential.verified.scopes, 'customers:read'] } : null;
        },
      },
    );
    const enriched = await api.call('GET', '/v2/customers', { token: await signToken(keyA, { sub: 'carol', scope: 'orders:read' }) });
    expect(enriched.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ id: 'carol', scopes: ['orders:read', 'customers:read'] });
    const blocked = await api.call('GET', '/v2/customers', { token: await signToken(keyA, { sub: 'blocked' }) });
    expect(blocked.status).toBe(401);
    expect(challengeOf(blocked.headers)).toContain('error="invalid_token"');
    // A token that fails verification never reaches authenticate.
    expect((await api.call('GET', '/v2/customers', { token: 'not-a-jwt' })).status).toBe(401);
    // API keys are not JWTs: they go to authenticate as before.
    expect((await api.call('GET', '/v2/customers', { token: null, headers: { 'x-api-key': 'key-1' } })).status).toBe(200);
  });

  it('counts rejected tokens per address: over the limit, 429 before verifying', async () => {
    const api = await serve({}, { authFailures: { max: 3, windowMs: 60_000 } });
    const bad = await signToken(keyA, { iss: 'https://evil.example/' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.call('GET', '/v2/customers', { token: bad })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await api.call('GET', '/v2/customers', { token: await signToken(keyA) })).status).toBe(429);
  });

  it('refuses to start with unsafe or incomplete jwt options', async () => {
    const { default: Fastify } = await import('fastify');
    const attempt = (jwt: object) => register(Fastify(), mod.createMemoryHandlers(), { jwt, migrations: SHOP_MIGRATIONS });
    await expect(attempt({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, algorithms: ['RS256', 'HS256'] })).rejects.toThrow(
      'HS256 (shared secrets) cannot be used with a JWKS',
    );
    await expect(attempt({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, algorithms: ['none'] })).rejects.toThrow('never "none"');
    await expect(attempt({ jwksUrl: jwks.url, audience: AUDIENCE })).rejects.toThrow('issuer is required');
    await expect(attempt({ jwksUrl: jwks.url, issuer: ISSUER })).rejects.toThrow('audience is required');
    await expect(attempt({ issuer: ISSUER, audience: AUDIENCE })).rejects.toThrow('give either jwksUrl');
    await expect(attempt({ jwksUrl: 'http://id.example.com/jwks', issuer: ISSUER, audience: AUDIENCE })).rejects.toThrow('jwksUrl must be https');
  });

  it('verifies with one fixed public key instead of a JWKS', async () => {
    const api = await serve({ jwksUrl: undefined, key: await exportSPKI(keyB.publicKey) });
    expect((await api.call('GET', '/v2/customers', { token: await signToken(keyB) })).status).toBe(200);
    expect((await api.call('GET', '/v2/customers', { token: await signToken(keyA) })).status).toBe(401);
  });
});
