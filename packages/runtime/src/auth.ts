/**
 * Credentials: reading the bearer token or API key of a request, static API keys compared in constant
 * time, JWT access tokens verified before `authenticate`, and the `WWW-Authenticate` challenge of the API.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { logSafely } from './contain.js';
import { limitKeyOf } from './client-address.js';
import type { JwtVerifier } from './jwt-claims.js';
import { problem, send } from './problems.js';
import type { MountedSpec } from './spec.js';
import type { Challenge, Mount } from './state.js';
import type { Credential, Principal, ServerOptions } from './types.js';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Static API keys, compared in constant time: every key is compared, hashes of equal length. */
function createKeyTable(keys: Readonly<Record<string, Principal>>): (token: string) => Principal | null {
  const table = Object.entries(keys).map(([key, principal]) => ({
    hash: sha256(key),
    principal,
  }));
  return (token) => {
    const hash = sha256(token);
    let found: Principal | null = null;
    for (const entry of table) if (timingSafeEqual(entry.hash, hash)) found = entry.principal;
    return found;
  };
}

/** The credential a request carries (a bearer token first, then the API key header), or null. */
export function readCredential(request: FastifyRequest, spec: MountedSpec, apiKeyHeader: string | null): Credential | null {
  const authorization = request.headers.authorization;
  if (spec.bearer && typeof authorization === 'string' && /^bearer\s+\S/i.test(authorization))
    return {
      scheme: 'bearer',
      token: authorization.replace(/^bearer\s+/i, '').trim(),
    };
  const key = apiKeyHeader === null ? undefined : request.headers[apiKeyHeader];
  if (typeof key === 'string' && key.length > 0) return { scheme: 'apiKey', token: key };
  return null;
}

/**
 * The challenges of the API's schemes, one per scheme (RFC 9110 section 11.6.1): `Bearer realm="shop"`
 * and `ApiKey realm="shop", header="X-API-Key"`. Error parameters (`error="invalid_token"`, RFC 6750) are
 * appended to the challenge of the scheme the rejected credential used, never after another scheme's.
 */
export function createChallenge(spec: MountedSpec): Challenge {
  const realm = `realm="${spec.name.toLowerCase()}"`;
  const schemes: [Credential['scheme'], string][] = [];
  if (spec.bearer) schemes.push(['bearer', `Bearer ${realm}`]);
  if (spec.apiKeyHeader !== null) schemes.push(['apiKey', `ApiKey ${realm}, header="${spec.apiKeyHeader}"`]);
  if (schemes.length === 0) schemes.push(['bearer', `Bearer ${realm}`]);
  return (scheme, error) => schemes.map(([s, text]) => (error !== undefined && s === scheme ? `${text}, ${error}` : text)).join(', ');
}

/** How the API turns credentials into principals, and the challenge its 401 and 403 answers carry. */
export interface Authenticator {
  readonly authenticate: (credential: Credential, request: FastifyRequest) => Promise<Principal | null>;
  readonly challenge: Challenge;
  /** Verifies bearer tokens as JWTs before `authenticate` (with `options.jwt`), else null. */
  readonly verifyJwt: JwtVerifier | null;
}

/**
 * Static keys first, then JWT verification of bearer tokens (`options.jwt`), then `options.authenticate`
 * (which receives a verified token's principal). Throws at startup when the API needs credentials and
 * nothing can accept them, or when `jwt` is given to an API that takes no bearer tokens.
 */
export function createAuthenticator(spec: MountedSpec, options: ServerOptions): Authenticator {
  const needsAuth = spec.versions.some((v) => v.routes.some((r) => r.operations.some((op) => !r.public.includes(op))));
  if (options.jwt && !spec.bearer)
    throw new Error(
      `register${spec.name}Api: options.jwt verifies bearer tokens, but the API takes none; declare auth.oauth2 (or bearer) in the API, or remove options.jwt.`,
    );
  if (options.jwt && !spec.jwt)
    throw new Error(
      `register${spec.name}Api: options.jwt needs the JWT verifier of @restgen/runtime/jwt in the route table; regenerate the server (restgen generate).`,
    );
  if ((spec.bearer || spec.apiKeyHeader !== null) && needsAuth && !options.authenticate && !options.apiKeys && !options.jwt)
    throw new Error(
      `register${spec.name}Api: the API needs credentials; pass options.authenticate, options.jwt (to verify JWT access tokens) or options.apiKeys (static API keys).`,
    );
  const staticKeys = options.apiKeys ? createKeyTable(options.apiKeys) : null;
  const authenticate = async (credential: Credential, request: FastifyRequest): Promise<Principal | null> => {
    if (credential.scheme === 'apiKey' && staticKeys) {
      const principal = staticKeys(credential.token);
      if (principal) return principal;
    }
    if (options.authenticate) return options.authenticate(credential, request);
    return credential.verified ?? null;
  };
  return {
    authenticate,
    challenge: createChallenge(spec),
    verifyJwt: options.jwt && spec.jwt ? spec.jwt(options.jwt, spec.name) : null,
  };
}

/** Seconds a client waits before retrying when the identity provider's keys cannot be fetched. */
const IDP_RETRY_AFTER = 5;

/**
 * With `options.jwt`, verifies a bearer token before `authenticate`: the credential carrying the verified
 * principal, or null once it answered: 401 `invalid_token` with the reason in `error_description` (counted
 * as a rejected credential), or 503 with `Retry-After` when the signing keys cannot be fetched (logged).
 */
export async function verifyBearer(m: Mount, credential: Credential, request: FastifyRequest, reply: FastifyReply): Promise<Credential | null> {
  if (m.verifyJwt === null || credential.scheme !== 'bearer') return credential;
  const verdict = await m.verifyJwt(credential.token);
  switch (verdict.kind) {
    case 'valid':
      return { ...credential, verified: verdict.principal };
    case 'invalid':
      m.failures?.failed(limitKeyOf(request.ip));
      reply.header(
        'www-authenticate',
        m.challenge(
          'bearer',
          // A quoted-string (RFC 9110): the descriptions are restgen's own words, kept free of quotes.
          `error="invalid_token", error_description="${verdict.description.replace(/["\\]/g, "'")}"`,
        ),
      );
      send(reply, problem(401, 'invalid_token', verdict.description));
      return null;
    case 'unavailable':
      logSafely(request.log, 'error', { err: verdict.error, source: 'options.jwt' }, "the identity provider's signing keys cannot be fetched");
      reply.header('retry-after', IDP_RETRY_AFTER);
      send(reply, problem(503, 'idp_unavailable', `The access token cannot be verified now; retry in ${IDP_RETRY_AFTER} s.`));
      return null;
  }
}
