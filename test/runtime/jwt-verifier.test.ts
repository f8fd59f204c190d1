/**
 * `createJwtVerifier` as source: a verified token is remembered, and what it remembers cannot be changed by
 * the code it is handed to (a handler that adds a scope to its principal must not grant it to every later
 * request with the same token); a fixed key is read at startup and verifies only the algorithms it can.
 */
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { KeyObject, type webcrypto } from 'node:crypto';
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

describe('createJwtVerifier with one fixed key', () => {
  const claims = { issuer: 'https://id.example.com', audience: 'shop' };
  const signed = async (alg: string, privateKey: webcrypto.CryptoKey | KeyObject) =>
    new SignJWT({})
      .setProtectedHeader({ alg })
      .setSubject('alice')
      .setIssuer(claims.issuer)
      .setAudience(claims.audience)
      .setExpirationTime('10m')
      .sign(privateKey);

  // WebCrypto throws a DataError when a token's algorithm does not fit the key (Node 22 and later for every
  // mismatch, Node 20 for a curve mismatch): the token's fault, never a 503 ("keys unavailable") it could provoke.
  it('refuses a token signed with an algorithm the key cannot verify, as the token at fault', async () => {
    const p256 = await generateKeyPair('ES256');
    const verify = createJwtVerifier({ key: await exportSPKI(p256.publicKey), ...claims }, 'shop');
    expect((await verify(await signed('ES256', p256.privateKey))).kind).toBe('valid');
    for (const alg of ['ES384', 'RS256', 'PS256', 'EdDSA']) {
      const other = await generateKeyPair(alg);
      expect(await verify(await signed(alg, other.privateKey)), alg).toEqual({
        kind: 'invalid',
        description: "The access token's signing algorithm is not accepted.",
      });
    }
  });

  it('reads the key as PEM, JWK, CryptoKey or KeyObject, and a JWK naming its alg verifies that one only', async () => {
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(rsa.publicKey);
    // A private key too (its public half verifies), as a KeyObject or a JWK with its private members.
    const privateKey = KeyObject.from(rsa.privateKey);
    const privateJwk = await exportJWK(rsa.privateKey);
    for (const key of [await exportSPKI(rsa.publicKey), jwk, rsa.publicKey, KeyObject.from(rsa.publicKey), privateKey, privateJwk]) {
      const verify = createJwtVerifier({ key, ...claims }, 'shop');
      expect((await verify(await signed('RS256', rsa.privateKey))).kind).toBe('valid');
      expect((await verify(await signed('PS256', KeyObject.from(rsa.privateKey)))).kind).toBe('valid');
    }
    const pinned = createJwtVerifier({ key: { ...jwk, alg: 'RS256' }, ...claims }, 'shop');
    expect((await pinned(await signed('RS256', rsa.privateKey))).kind).toBe('valid');
    expect((await pinned(await signed('PS256', KeyObject.from(rsa.privateKey)))).kind).toBe('invalid');
  });

  it('refuses to start with a key that verifies none of the allowed algorithms, or that is not a key', async () => {
    const ed = await generateKeyPair('EdDSA');
    expect(() => createJwtVerifier({ key: ed.publicKey, algorithms: ['RS256', 'ES256'], ...claims }, 'Shop')).toThrow(
      'registerShopApi: options.jwt: key (ed25519) verifies none of the allowed algorithms (RS256, ES256); it verifies EdDSA, Ed25519.',
    );
    expect(() => createJwtVerifier({ key: '-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n', ...claims }, 'Shop')).toThrow(
      /^registerShopApi: options\.jwt: key cannot be read as a verification key \(/,
    );
  });
});
