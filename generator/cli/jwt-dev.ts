/**
 * @module `restgen serve --jwt-dev`: a signing key made at startup (ES256, never written anywhere), the
 * `jwt` options that make the generated server verify bearer tokens with it through its real JWT path,
 * and a signed development token that carries every scope of the API.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { ApiIR } from '../model/ir.ts';

/** What `serve --jwt-dev` passes to the server and prints. */
export interface DevJwt {
  /** The `jwt` option of the generated server: the public key, issuer and audience. */
  readonly options: { readonly key: KeyObject; readonly issuer: string; readonly audience: string; readonly algorithms: readonly string[] };
  /** A token with every scope, valid for `hours`. */
  readonly token: string;
  readonly issuer: string;
  readonly audience: string;
  readonly scopes: readonly string[];
  readonly hours: number;
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** Every scope of the API: the declared OAuth 2.0 scopes and every scope a collection or one of its transitions names, sorted. */
export function allScopes(ir: ApiIR): string[] {
  const named = ir.collections.flatMap((c) => [...c.scopes.read, ...c.scopes.write, ...(c.lifecycle?.transitions.flatMap((t) => t.scopes ?? []) ?? [])]);
  return [...new Set([...(ir.auth.oauth2?.scopes.map((s) => s.name) ?? []), ...named])].sort();
}

/** Makes a key pair and a development token for `ir`; `now` is in ms since the epoch. */
export function createDevJwt(ir: ApiIR, now: number, hours = 24): DevJwt {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = createHash('sha256')
    .update(publicKey.export({ format: 'der', type: 'spki' }))
    .digest('base64url')
    .slice(0, 16);
  const issuer = 'restgen-dev';
  const audience = ir.name;
  const scopes = allScopes(ir);
  const iat = Math.floor(now / 1000);
  const header = { alg: 'ES256', typ: 'JWT', kid };
  const payload = { iss: issuer, aud: audience, sub: 'dev', scope: scopes.join(' '), iat, exp: iat + hours * 3600 };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  // JWS wants the raw r||s form of an ECDSA signature (RFC 7518 section 3.4), not DER.
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return {
    options: { key: publicKey, issuer, audience, algorithms: ['ES256'] },
    token: `${input}.${base64url(signature)}`,
    issuer,
    audience,
    scopes,
    hours,
  };
}
