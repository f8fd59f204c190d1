/**
 * @module A real JWKS endpoint on loopback (node:http) and the keys and tokens of the OAuth tests, made with
 * jose: the test rotates the key set, counts fetches, makes the endpoint fail, and stops it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** A signing key with its public JWK (kid and alg set). */
export interface TestKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly jwk: JWK;
}

/** Makes a key pair for `alg` with id `kid`. */
export async function makeKey(kid: string, alg = 'RS256'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export const ISSUER = 'https://id.test.example/';
export const AUDIENCE = 'https://api.test.example/shop';

/** A token signed with `key`: valid for an hour by default; `claims` override or add claims (undefined removes one). */
export async function signToken(key: TestKey, claims: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const base: JWTPayload = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'user-1',
    iat: now,
    exp: now + 3600,
    scope: 'orders:read orders:write customers:read customers:write',
  };
  const payload = Object.fromEntries(Object.entries({ ...base, ...claims }).filter(([, v]) => v !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' }).sign(key.privateKey);
}

/** A running JWKS endpoint. */
export interface JwksServer {
  readonly url: string;
  /** JWKS requests answered so far. */
  fetches(): number;
  /** Serves these keys from now on. */
  setKeys(keys: readonly TestKey[]): void;
  /** Answers every request with this status (500, 404) instead of the key set; null serves the keys again. */
  failWith(status: number | null): void;
  /**
   * Answers every request with this body instead of the key set: text (sent with its Content-Length, or
   * chunked with `chunked`), or `endless` (chunks of JSON-ish text until the client goes); null serves the
   * keys again.
   */
  serveBody(body: { text: string; chunked?: boolean } | 'endless' | null): void;
  /** Connections the client closed before an endless body ended. */
  abandoned(): number;
  close(): Promise<void>;
}

/** Starts a JWKS endpoint on 127.0.0.1 serving `keys`. */
export async function startJwks(keys: readonly TestKey[]): Promise<JwksServer> {
  let current = keys;
  let count = 0;
  let failure: number | null = null;
  let body: { text: string; chunked?: boolean } | 'endless' | null = null;
  let abandoned = 0;
  const server: Server = createServer((_request, response) => {
    count++;
    if (failure !== null) {
      response.writeHead(failure, { 'content-type': 'text/plain' }).end('down');
      return;
    }
    if (body === 'endless') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `{"keys":[${'{"kty":"oct","k":"AAAA"},'.repeat(2000)}`;
      const more = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      response.on('close', () => void abandoned++);
      more();
      return;
    }
    if (body !== null) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (!body.chunked) headers['content-length'] = String(Buffer.byteLength(body.text));
      response.writeHead(200, headers);
      if (body.chunked) for (let i = 0; i < body.text.length; i += 65_536) response.write(body.text.slice(i, i + 65_536));
      response.end(body.chunked ? undefined : body.text);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: current.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    fetches: () => count,
    setKeys: (next) => void (current = next),
    failWith: (status) => void (failure = status),
    serveBody: (next) => void (body = next),
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
