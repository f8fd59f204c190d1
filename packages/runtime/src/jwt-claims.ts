/**
 * What JWT verification shares with the rest of the runtime, without jose: the options, the verdict types,
 * the default algorithm allow-list and reading scopes from claims. The verifier itself is in `jwt.ts`
 * (`@restgen/runtime/jwt`), which the generated server imports only when the API takes bearer tokens.
 */
import type { KeyObject, webcrypto } from 'node:crypto';
import type { Principal } from './principal.js';

/** What verifying one token came to. */
export type JwtVerdict =
  | {
      readonly kind: 'valid';
      readonly principal: Principal;
      readonly claims: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'invalid'; readonly description: string }
  | { readonly kind: 'unavailable'; readonly error: unknown };

/** Verifies one access token. */
export type JwtVerifier = (token: string) => Promise<JwtVerdict>;

/** The default allow-list: asymmetric signatures only, so a public key can never be used as an HMAC secret. */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** The largest JWKS response read, in bytes (256 KiB): a larger one is refused, and no more of it is read. */
export const DEFAULT_JWKS_MAX_BYTES = 262_144;

/** The most keys a JWKS may hold (100): one with more is refused. */
export const DEFAULT_JWKS_MAX_KEYS = 100;

/** The scopes of a token: `scope` (space-separated) and `scp` (an array, or a space-separated string). */
export function scopesOfClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const words = (value: unknown): string[] =>
    typeof value === 'string'
      ? value.split(' ').filter((s) => s.length > 0)
      : Array.isArray(value)
        ? value.filter((s): s is string => typeof s === 'string')
        : [];
  return [...new Set([...words(claims['scope']), ...words(claims['scp'])])];
}

/** How the server verifies JWT access tokens (`options.jwt`). Give `jwksUrl` or `key`. */
export interface JwtOptions {
  /** The identity provider's JWKS, e.g. `https://id.example.com/.well-known/jwks.json` (https; http only on loopback). */
  readonly jwksUrl?: string | URL;
  /**
   * One verification key instead of a JWKS: a public key (PEM text, JWK, KeyObject or CryptoKey), or a shared secret (bytes) with `algorithms: ["HS256"]`.
   * Read at startup (a private key verifies with its public half); of `algorithms`, only those the key can verify are accepted (a JWK's `alg` narrows them to that one), and a key that verifies none of them stops startup.
   */
  readonly key?: string | webcrypto.JsonWebKey | KeyObject | webcrypto.CryptoKey | Uint8Array;
  /** The `iss` the tokens must carry (one of them). */
  readonly issuer: string | readonly string[];
  /** The `aud` the tokens must carry: this API's identifier at the identity provider (one of them). */
  readonly audience: string | readonly string[];
  /** Accepted `alg` values (default: RS256-512, PS256-512, ES256-512, EdDSA, Ed25519). */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 0). */
  readonly clockTolerance?: number;
  /** Longest wait for the JWKS, in ms (default 5000). */
  readonly jwksTimeout?: number;
  /** Least time between two JWKS fetches caused by unknown `kid`s, in ms (default 30 000). */
  readonly jwksCooldown?: number;
  /** How long a fetched JWKS is used before it is fetched again, in ms (default 600 000). */
  readonly jwksMaxAge?: number;
  /**
   * The largest JWKS response read, in bytes (default 262 144): a larger one is refused (the request answers
   * 503 with `Retry-After`, logged) and reading stops there, so a hostile or broken key set costs no memory.
   */
  readonly jwksMaxBytes?: number;
  /** The most keys a JWKS may hold (default 100); one with more is refused like an oversized one. */
  readonly jwksMaxKeys?: number;
  /**
   * The `typ` header every token must carry, e.g. `'at+jwt'` (RFC 9068 section 4: access tokens are typed
   * so that an ID token or a DPoP proof cannot stand in for one). Compared case-insensitively, with or
   * without `application/`. Default: not checked.
   */
  readonly requireType?: string;
}

/** Creates the verifier of `options.jwt` (`createJwtVerifier` of `@restgen/runtime/jwt`). */
export type CreateJwtVerifier = (options: JwtOptions, api: string) => JwtVerifier;
