/**
 * `createJwtVerifier` as source: a verified token is remembered, and what it remembers cannot be changed by
 * the code it is handed to (a handler that adds a scope to its principal must not grant it to every later
 * request with the same token).
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtVerifier } from '../../packages/runtime/src/jwt.ts';

const secret = new TextEncoder().encode('a shared secret of at least thirty-two bytes!');
const options = { key: secret, algorithms: ['HS256'] as const, issuer: 'https://id.example.com', audience: 'shop' };

async function token(): Promise<string> {
  return new SignJWT({ scope: 'orders:read', org: { id: 'o1', roles: ['member'] } })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('alice')
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setExpirationTime('10m')
    .sign(secret);
}

describe('createJwtVerifier', () => {
  it('hands every request a principal its handler cannot change for the next request with the same token', async () => {
    const verify = createJwtVerifier({ ...options, algorithms: [...options.algorithms] }, 'shop');
    const jwt = await token();
    const first = await verify(jwt);
    if (first.kind !== 'valid') throw new Error(`expected a valid token, got ${first.kind}`);
    // What a careless JavaScript handler might do to its own request's principal.
    const tamper = [
      () => (first.principal.scopes as string[]).push('orders:admin'),
      () => ((first.principal as { id: string }).id = 'root'),
      () => (first.principal.claims!['org'] as { roles: string[] }).roles.push('owner'),
      () => ((first.claims as Record<string, unknown>)['scope'] = 'orders:admin'),
    ];
    for (const change of tamper) expect(change).toThrow(TypeError);
    const second = await verify(jwt);
    if (second.kind !== 'valid') throw new Error(`expected a valid token, got ${second.kind}`);
    expect(second.principal.id).toBe('alice');
    expect(second.principal.scopes).toEqual(['orders:read']);
    expect(second.principal.claims!['org']).toEqual({ id: 'o1', roles: ['member'] });
    expect(second.claims['scope']).toBe('orders:read');
  });
});
