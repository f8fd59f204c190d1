/**
 * Credentials: reading the bearer token or API key of a request, static API keys compared in constant
 * time, and the `WWW-Authenticate` challenge of the API.
 */
import type { FastifyRequest } from "fastify";
import { createHash, timingSafeEqual } from "node:crypto";
import type { ApiSpec } from "./spec.js";
import type { Credential, Principal, ServerOptions } from "./types.js";

const sha256 = (text: string): Buffer =>
  createHash("sha256").update(text).digest();

/** Static API keys, compared in constant time: every key is compared, hashes of equal length. */
function createKeyTable(
  keys: Readonly<Record<string, Principal>>,
): (token: string) => Principal | null {
  const table = Object.entries(keys).map(([key, principal]) => ({
    hash: sha256(key),
    principal,
  }));
  return (token) => {
    const hash = sha256(token);
    let found: Principal | null = null;
    for (const entry of table)
      if (timingSafeEqual(entry.hash, hash)) found = entry.principal;
    return found;
  };
}

/** The credential a request carries (a bearer token first, then the API key header), or null. */
export function readCredential(
  request: FastifyRequest,
  spec: ApiSpec,
  apiKeyHeader: string | null,
): Credential | null {
  const authorization = request.headers.authorization;
  if (
    spec.bearer &&
    typeof authorization === "string" &&
    /^bearer\s+\S/i.test(authorization)
  )
    return {
      scheme: "bearer",
      token: authorization.replace(/^bearer\s+/i, "").trim(),
    };
  const key = apiKeyHeader === null ? undefined : request.headers[apiKeyHeader];
  if (typeof key === "string" && key.length > 0)
    return { scheme: "apiKey", token: key };
  return null;
}

/** The `WWW-Authenticate` value of a 401 or 403; `error` goes into the challenge of the scheme the client used. */
export type Challenge = (
  scheme: Credential["scheme"] | null,
  error?: string,
) => string;

/** How the API turns credentials into principals, and the challenge its 401 and 403 answers carry. */
export interface Authenticator {
  readonly authenticate: (
    credential: Credential,
    request: FastifyRequest,
  ) => Promise<Principal | null>;
  readonly challenge: Challenge;
}

/**
 * The challenges of the API's schemes, one per scheme (RFC 9110 section 11.6.1): `Bearer realm="shop"`
 * and `ApiKey realm="shop", header="X-API-Key"`. Error parameters (`error="invalid_token"`, RFC 6750) are
 * appended to the challenge of the scheme the rejected credential used, never after another scheme's.
 */
export function createChallenge(spec: ApiSpec): Challenge {
  const realm = `realm="${spec.name.toLowerCase()}"`;
  const schemes: [Credential["scheme"], string][] = [];
  if (spec.bearer) schemes.push(["bearer", `Bearer ${realm}`]);
  if (spec.apiKeyHeader !== null)
    schemes.push(["apiKey", `ApiKey ${realm}, header="${spec.apiKeyHeader}"`]);
  if (schemes.length === 0) schemes.push(["bearer", `Bearer ${realm}`]);
  return (scheme, error) =>
    schemes
      .map(([s, text]) =>
        error !== undefined && s === scheme ? `${text}, ${error}` : text,
      )
      .join(", ");
}

/** Static keys first, then `options.authenticate`; throws at startup when the API needs credentials and neither is given. */
export function createAuthenticator(
  spec: ApiSpec,
  options: ServerOptions,
): Authenticator {
  const needsAuth = spec.versions.some((v) =>
    v.routes.some((r) =>
      r.operations.some((op) => !r.collection.public.includes(op)),
    ),
  );
  if (
    (spec.bearer || spec.apiKeyHeader !== null) &&
    needsAuth &&
    !options.authenticate &&
    !options.apiKeys
  )
    throw new Error(
      `register${spec.name}Api: the API needs credentials; pass options.authenticate (or options.apiKeys for static API keys).`,
    );
  const staticKeys = options.apiKeys ? createKeyTable(options.apiKeys) : null;
  const authenticate = async (
    credential: Credential,
    request: FastifyRequest,
  ): Promise<Principal | null> => {
    if (credential.scheme === "apiKey" && staticKeys) {
      const principal = staticKeys(credential.token);
      if (principal) return principal;
    }
    return options.authenticate
      ? options.authenticate(credential, request)
      : null;
  };
  return { authenticate, challenge: createChallenge(spec) };
}
