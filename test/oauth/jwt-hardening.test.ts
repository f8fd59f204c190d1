/**
 * Hostile tokens and a hostile identity provider, against the generated shop server verifying JWTs with a
 * real JWKS endpoint on loopback: `jwt.requireType` ('at+jwt', RFC 9068 section 4) refuses tokens typed
 * `JWT`, `dpop+jwt` or not typed at all; a `sub` that is not a non-empty string is 401 `invalid_token` (it
 * would be the principal's id); a JWKS over `jwksMaxBytes` (declared, chunked or endless) or with more than
 * `jwksMaxKeys` keys is refused like keys that cannot be fetched (503 with Retry-After, logged), and reading
 * stops at the cap.
 */
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Register, type Running } from '../server/helpers.ts';
import { AUDIENCE, ISSUER, makeKey, signToken, startJwks, type JwksServer, type TestKey } from './jwks-server.ts';

let register: Register;
let jwks: JwksServer;
let key: TestKey;
const running: Running[] = [];

async function serve(jwt: object = {}): Promise<Running> {
  const mod = await importServer(await generateInto('oauth-jwt-hardening'));
  register ??= registerOf(mod, 'Shop');
  const server = await start((app: FastifyInstance) =>
    register(app, mod.createMemoryHandlers(), {
      jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwksCooldown: 0, jwksMaxAge: 0, ...jwt },
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      authFailures: false,
    }),
  );
  running.push(server);
  return server;
}

/** A token signed with `key`, with the `typ` header given (undefined: none). */
async function typed(typ: string | undefined, claims: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: key.alg, kid: key.kid, ...(typ !== undefined ? { typ } : {}) };
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 3600, scope: 'customers:read', ...claims })
    .setProtectedHeader(header)
    .sign(key.privateKey);
}

beforeAll(async () => {
  key = await makeKey('key-h');
  jwks = await startJwks([key]);
}, 120_000);
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await jwks.close();
});

describe('jwt.requireType', () => {
  let strict: Running;
  let lax: Running;
  beforeAll(async () => {
    strict = await serve({ requireType: 'at+jwt' });
    lax = await serve();
  });

  it.each([
    ['at+jwt', 200],
    ['application/at+jwt', 200],
    ['AT+JWT', 200],
    ['JWT', 401],
    ['dpop+jwt', 401],
    [undefined, 401],
  ] as const)('typ %s answers %d when at+jwt is required', async (typ, status) => {
    const answer = await strict.call('GET', '/v2/customers', { token: await typed(typ) });
    expect(answer.status).toBe(status);
    if (status === 401) {
      expect(answer.body).toMatchObject({ code: 'invalid_token' });
      expect(answer.headers.get('www-authenticate')).toContain('typ at+jwt');
    }
  });

  it('is not checked unless asked', async () => {
    for (const typ of ['JWT', 'dpop+jwt', undefined]) expect((await lax.call('GET', '/v2/customers', { token: await typed(typ) })).status).toBe(200);
  });

  it('refuses an empty requireType at startup', async () => {
    await expect(serve({ requireType: '' })).rejects.toThrow('requireType');
  });
});

describe('sub', () => {
  let api: Running;
  beforeAll(async () => {
    api = await serve();
  });

  it.each([
    ['a number', 12345],
    ['empty', ''],
    ['an object', { id: 'x' }],
    ['an array', ['user-1']],
    ['true', true],
  ])('%s sub answers 401 invalid_token', async (_name, sub) => {
    const answer = await api.call('GET', '/v2/customers', { token: await typed('at+jwt', { sub }) });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'invalid_token' });
    expect(String(answer.body['detail'])).toMatch(/sub/);
  });

  it('a non-empty string sub is the principal', async () => {
    expect((await api.call('GET', '/v2/customers', { token: await signToken(key, { sub: '12345' }) })).status).toBe(200);
  });
});

describe('JWKS caps', () => {
  const bigSet = (padding: number) =>
    JSON.stringify({ keys: [key.jwk, ...Array.from({ length: padding }, (_, i) => ({ kty: 'oct', kid: `pad-${i}`, k: 'A'.repeat(1000) }))] });
  afterAll(() => jwks.serveBody(null));

  it.each([
    ['3 MB with Content-Length', 3000, false, {}],
    ['3 MB chunked (no Content-Length)', 3000, true, {}],
    ['over a lowered jwksMaxBytes', 20, false, { jwksMaxBytes: 10_000 }],
    ['101 keys', 100, false, {}],
    ['more keys than a lowered jwksMaxKeys', 2, false, { jwksMaxKeys: 2 }],
  ] as const)('a JWKS of %s is refused: 503 with Retry-After, logged', async (_name, padding, chunked, caps) => {
    jwks.serveBody({ text: bigSet(padding), chunked });
    const api = await serve(caps);
    const answer = await api.call('GET', '/v2/customers', { token: await signToken(key) });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(answer.body).toMatchObject({ code: 'idp_unavailable' });
    expect(api.errors.join('\n')).toMatch(/jwksMax(Bytes|Keys)/);
  });

  it('an endless JWKS is refused once the cap is read, well before jwksTimeout; the download is dropped', async () => {
    jwks.serveBody('endless');
    const before = jwks.abandoned();
    const api = await serve({ jwksTimeout: 600_000 });
    const answer = await api.call('GET', '/v2/customers', { token: await signToken(key) });
    expect(answer.status).toBe(503);
    for (let i = 0; i < 100 && jwks.abandoned() === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(jwks.abandoned()).toBe(before + 1);
  });

  it('a key set within the caps verifies', async () => {
    jwks.serveBody({ text: bigSet(98) });
    const api = await serve();
    expect((await api.call('GET', '/v2/customers', { token: await signToken(key) })).status).toBe(200);
  });
});
