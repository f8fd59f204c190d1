/**
 * Unit tests of the OAuth 2.0 parts of the runtime: scopes read from a token's claims, and the client's
 * token source keeping a token until shortly before it expires (with an injected clock and a loopback
 * token endpoint).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTokenSource } from '../../runtime/client/oauth.ts';
import { scopesOfClaims } from '../../packages/runtime/src/jwt-claims.ts';

describe('scopesOfClaims', () => {
  it('reads `scope` (space-separated) and `scp` (an array or a space-separated string), without duplicates', () => {
    expect(scopesOfClaims({ scope: 'a:read  a:write' })).toEqual(['a:read', 'a:write']);
    expect(scopesOfClaims({ scp: ['a:read', 'b:read'] })).toEqual(['a:read', 'b:read']);
    expect(scopesOfClaims({ scp: 'a:read b:read' })).toEqual(['a:read', 'b:read']);
    expect(scopesOfClaims({ scope: 'a:read', scp: ['a:read', 'c'] })).toEqual(['a:read', 'c']);
    expect(scopesOfClaims({ scope: 42, scp: [1, 'x'] })).toEqual(['x']);
    expect(scopesOfClaims({})).toEqual([]);
  });
});

/**
 * Runs `body` against a token endpoint on loopback that issues `t1`, `t2`, ... with `expires_in`, and a token
 * source for it on a clock the test moves (`clock.now`).
 */
async function withTokenEndpoint(
  expiresIn: number | string,
  body: (source: ReturnType<typeof createTokenSource>, clock: { now: number }) => Promise<void>,
): Promise<void> {
  let issued = 0;
  const server = createServer((_request, response) => {
    issued++;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: `t${issued}`, token_type: 'bearer', expires_in: expiresIn }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const clock = { now: 1_000_000 };
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
    await body(
      createTokenSource({ clientId: 'a', clientSecret: 'b', refreshBefore: 10_000 }, url, undefined, 5000, 1 << 20, () => clock.now),
      clock,
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('createTokenSource', () => {
  it.each([100, '100'])(
    'keeps a token until refreshBefore (at most half its lifetime) before expiry, and forgets a refused one (expires_in %j: some providers send digits as a string)',
    async (expiresIn) => {
      await withTokenEndpoint(expiresIn, async (source, clock) => {
        const signal = new AbortController().signal;
        expect(await source.get(signal)).toBe('t1');
        clock.now += 89_999;
        expect(await source.get(signal)).toBe('t1');
        clock.now += 1;
        expect(await source.get(signal)).toBe('t2');
        source.invalidate('t1');
        expect(await source.get(signal)).toBe('t2');
        source.invalidate('t2');
        expect(await source.get(signal)).toBe('t3');
      });
      expect(() => createTokenSource({ clientId: 'a', clientSecret: 'b' }, null, undefined, 5000, 1 << 20)).toThrow('tokenUrl is required');
    },
  );

  it('sends the client secret over TLS only: an http token URL is refused unless it is on this machine (RFC 6749 section 2.3.1)', () => {
    const make = (tokenUrl: string) => () => createTokenSource({ clientId: 'a', clientSecret: 'b', tokenUrl }, null, undefined, 5000, 1 << 20);
    for (const url of ['http://id.example.com/token', 'http://10.0.0.5/token', 'ftp://id.example.com/token']) expect(make(url), url).toThrow(/must be https/);
    for (const url of ['https://id.example.com/oauth/token', 'http://localhost:9000/token', 'http://127.0.0.1:9000/token', 'http://[::1]:9000/token'])
      expect(make(url), url).not.toThrow();
  });
});
