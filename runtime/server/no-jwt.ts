/**
 * Stands in for `jwt.ts` in the server of an API that takes no bearer tokens: the same exports without
 * jose, so such a server does not need it installed. `options.jwt` does not type-check there
 * (`JwtOptions` is `never`), and registration refuses a `jwt` passed anyway before this module is reached.
 */
export {
  DEFAULT_JWT_ALGORITHMS,
  scopesOfClaims,
  type JwtVerdict,
  type JwtVerifier,
} from "./jwt-claims.js";

/** The API takes no bearer tokens, so there is nothing to verify: `options.jwt` has no valid value. */
export type JwtOptions = never;

/** Never called: the API takes no bearer tokens. Throws, naming the fix, if it ever is. */
export function createJwtVerifier(options: JwtOptions, api: string): never {
  throw new Error(
    `register${api}Api: options.jwt verifies bearer tokens, but the API takes none; declare auth.oauth2 (or bearer) in the API, or remove options.jwt.`,
    { cause: options },
  );
}
