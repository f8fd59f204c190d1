/**
 * What JWT verification shares with the server of an API that takes no bearer tokens, without jose: the
 * verdict types, the default algorithm allow-list and reading scopes from claims.
 */
import type { Principal } from "./types.js";

/** What verifying one token came to. */
export type JwtVerdict =
  | {
      readonly kind: "valid";
      readonly principal: Principal;
      readonly claims: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: "invalid"; readonly description: string }
  | { readonly kind: "unavailable"; readonly error: unknown };

/** Verifies one access token. */
export type JwtVerifier = (token: string) => Promise<JwtVerdict>;

/** The default allow-list: asymmetric signatures only, so a public key can never be used as an HMAC secret. */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** The scopes of a token: `scope` (space-separated) and `scp` (an array, or a space-separated string). */
export function scopesOfClaims(
  claims: Readonly<Record<string, unknown>>,
): string[] {
  const words = (value: unknown): string[] =>
    typeof value === "string"
      ? value.split(" ").filter((s) => s.length > 0)
      : Array.isArray(value)
        ? value.filter((s): s is string => typeof s === "string")
        : [];
  return [...new Set([...words(claims["scope"]), ...words(claims["scp"])])];
}
