/**
 * `@restgen/runtime/jwt`: JWT access tokens verified with jose (the only module that imports it, so an API
 * that takes no bearer tokens never loads jose): signing keys from the identity provider's JWKS (cached, refetched
 * when a token names an unknown `kid`, at most once per cooldown) or one fixed key (read at startup, and
 * offered to jose only with the allowed algorithms it can verify); only the allowed algorithms (asymmetric
 * by default, never `none`, never HS* with a JWKS); `exp`, `nbf`, `iss` and `aud`
 * checked, `sub` a non-empty string, and the `typ` header when `requireType` asks. The JWKS download is
 * capped in bytes and keys (`jwt-fetch.ts`). A token that fails says why in words fit for
 * `error_description`, never with internals; keys that cannot be fetched (or are refused) are `unavailable`
 * (the route answers 503), never a pass. A verified token is remembered for up to a minute (never past its
 * `exp`).
 */
import { createLocalJWKSet, errors, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { createPublicKey, createSecretKey, KeyObject, type webcrypto } from 'node:crypto';
import { createCappedFetch } from './jwt-fetch.js';
import {
  DEFAULT_JWKS_MAX_BYTES,
  DEFAULT_JWKS_MAX_KEYS,
  DEFAULT_JWT_ALGORITHMS,
  scopesOfClaims,
  type JwtOptions,
  type JwtVerdict,
  type JwtVerifier,
} from './jwt-claims.js';

export type { JwtOptions, JwtVerdict, JwtVerifier };

const INVALID_JWT = 'The access token is not a valid JWT.';
/** Token problems by jose's error code, worded for the client; every other failure is the keys' (503). */
const TOKEN_ERRORS: Readonly<Record<string, string>> = {
  [errors.JWTExpired.code]: 'The access token expired.',
  [errors.JWSSignatureVerificationFailed.code]: "The access token's signature is not valid.",
  [errors.JOSEAlgNotAllowed.code]: "The access token's signing algorithm is not accepted.",
  [errors.JWKSNoMatchingKey.code]: 'No signing key of the issuer matches the access token.',
  [errors.JWKSMultipleMatchingKeys.code]: 'No single signing key of the issuer matches the access token.',
  [errors.JOSENotSupported.code]: 'The access token uses an algorithm or header this API does not support.',
  [errors.JWSInvalid.code]: INVALID_JWT,
  [errors.JWTInvalid.code]: INVALID_JWT,
};
/** A token a fixed key refuses for a reason jose does not name (nothing is unavailable about a key held in memory). */
const FIXED_KEY_REFUSED = "The access token cannot be verified with this API's key.";
const CLAIM_ERRORS: Readonly<Record<string, string>> = {
  iss: 'The access token was not issued by the expected issuer.',
  aud: 'The access token is not meant for this API.',
  nbf: 'The access token is not valid yet.',
};

/** Why a verification failed, in words for `error_description`, or null when the token is not to blame. */
function describeFailure(error: unknown, requireType: string | undefined): string | null {
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ')
    return `The access token is not of the type this API requires (typ ${requireType ?? ''}).`;
  if (error instanceof errors.JWTClaimValidationFailed)
    return error.reason === 'missing'
      ? `The access token has no ${error.claim} claim.`
      : (CLAIM_ERRORS[error.claim] ?? `The access token's ${error.claim} claim is not accepted.`);
  if (error instanceof errors.JOSEError) return TOKEN_ERRORS[error.code] ?? null;
  return null;
}

/** Whether a key is a shared secret (HMAC) rather than a public key. */
function isSecret(key: JwtOptions['key']): boolean {
  if (key instanceof Uint8Array) return true;
  if (typeof key !== 'object') return false;
  if ('type' in key) return key.type === 'secret';
  return 'kty' in key && key.kty === 'oct';
}

/** Throws when the options cannot verify anything safely; runs once, at startup. */
function checkOptions(options: JwtOptions, algorithms: readonly string[], fail: (why: string) => never): void {
  if ((options.jwksUrl === undefined) === (options.key === undefined)) fail("give either jwksUrl (the identity provider's keys) or key.");
  // Options may come from plain JavaScript: nothing here is trusted to match its type.
  const listed = (v: unknown) => (typeof v === 'string' && v.length > 0) || (Array.isArray(v) && v.some((s) => typeof s === 'string' && s.length > 0));
  if (!listed(options.issuer)) fail('issuer is required (the iss of the tokens).');
  if (!listed(options.audience)) fail("audience is required (this API's identifier, the aud of the tokens).");
  if (algorithms.length === 0 || algorithms.some((a) => a.toLowerCase() === 'none')) fail('algorithms must name at least one algorithm, and never "none".');
  const hmac = algorithms.filter((a) => a.startsWith('HS'));
  if (options.jwksUrl !== undefined && hmac.length > 0) fail(`${hmac.join(', ')} (shared secrets) cannot be used with a JWKS.`);
  if (options.key !== undefined && isSecret(options.key) !== hmac.length > 0)
    fail('a shared secret (bytes) needs algorithms: ["HS256"] (or HS384, HS512), and HS* needs a shared secret.');
  if (options.requireType !== undefined && (typeof options.requireType !== 'string' || options.requireType === ''))
    fail("requireType must be a media type such as 'at+jwt'.");
  for (const name of ['jwksMaxBytes', 'jwksMaxKeys'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) fail(`${name} must be a whole number of at least 1.`);
  }
  if (options.jwksUrl !== undefined) {
    const url = new URL(options.jwksUrl);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) fail('jwksUrl must be https (http only on localhost).');
  }
}

/**
 * The identity provider's keys, fetched as jose's `createRemoteJWKSet` does (kept for `jwksMaxAge`; a token
 * naming an unknown `kid` fetches again at most once per `jwksCooldown`; one fetch at a time), but through
 * the capped fetch: the download stops at `jwksMaxBytes`. (jose's own `customFetch` hook is not in every
 * jose 6 this package accepts.)
 */
function remoteKeys(url: URL, options: JwtOptions): JWTVerifyGetKey {
  const fetchCapped = createCappedFetch({
    maxBytes: options.jwksMaxBytes ?? DEFAULT_JWKS_MAX_BYTES,
    maxKeys: options.jwksMaxKeys ?? DEFAULT_JWKS_MAX_KEYS,
  });
  const timeout = options.jwksTimeout ?? 5000;
  const cooldown = options.jwksCooldown ?? 30_000;
  const maxAge = options.jwksMaxAge ?? 600_000;
  let local: JWTVerifyGetKey | null = null;
  let fetchedAt = -Infinity;
  // The cooldown runs from the last attempt, failed or not: an unknown kid must not start a fetch per token
  // while the identity provider is down.
  let attemptedAt = -Infinity;
  let pending: Promise<void> | null = null;
  const reload = (): Promise<void> =>
    (pending ??= (async () => {
      attemptedAt = Date.now();
      const response = await fetchCapped(url.href, {
        redirect: 'manual',
        signal: AbortSignal.timeout(timeout),
        headers: { accept: 'application/json, application/jwk-set+json' },
      });
      if (response.status !== 200) throw new Error(`the JWKS endpoint answered ${response.status}`);
      local = createLocalJWKSet((await response.json()) as never);
      fetchedAt = Date.now();
    })().finally(() => {
      pending = null;
    }));
  return async (header, token) => {
    if (local === null || Date.now() >= fetchedAt + maxAge) await reload();
    try {
      return await local!(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || Date.now() < attemptedAt + cooldown) throw error;
      await reload();
      return local!(header, token);
    }
  };
}

/**
 * The one fixed key as a KeyObject, read once at startup (so a broken key stops the server there, not at the
 * first request): PEM text (a public key or certificate), a JWK, a CryptoKey, a KeyObject, or a shared
 * secret's bytes; with the algorithm a JWK names (`alg`), if it names one.
 */
function fixedKey(key: NonNullable<JwtOptions['key']>, fail: (why: string) => never): { key: KeyObject; jwkAlg?: string } {
  const read = (): { key: KeyObject; jwkAlg?: string } => {
    if (typeof key === 'string') return { key: createPublicKey(key) };
    if (key instanceof KeyObject) return { key };
    if (key instanceof Uint8Array) return { key: createSecretKey(key) };
    if ('type' in key && 'algorithm' in key) return { key: KeyObject.from(key as webcrypto.CryptoKey) };
    const jwk = key as webcrypto.JsonWebKey;
    const fromJwk =
      jwk.kty === 'oct' ? createSecretKey(Buffer.from(jwk.k ?? '', 'base64url')) : createPublicKey({ key: jwk as JWK & { kty: string }, format: 'jwk' });
    return typeof jwk.alg === 'string' ? { key: fromJwk, jwkAlg: jwk.alg } : { key: fromJwk };
  };
  try {
    const given = read();
    // Given a private key, the server verifies with its public half (it never needs to sign).
    return given.key.type === 'private' ? { ...given, key: createPublicKey(given.key) } : given;
  } catch (error) {
    return fail(`key cannot be read as a verification key (${error instanceof Error ? error.message : String(error)}).`);
  }
}

const EC_ALGORITHMS: Readonly<Record<string, string>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/**
 * The JWS algorithms `key` can verify. jose is given only these (of those allowed), so a token signed another
 * way is refused by its header (401, "signing algorithm is not accepted") before the key is used: WebCrypto
 * would otherwise throw a DataError for the mismatch, which no token should be able to turn into a 503.
 */
function algorithmsOf(key: KeyObject, jwkAlg: string | undefined): readonly string[] {
  const byType: readonly string[] = (() => {
    if (key.type === 'secret') return ['HS256', 'HS384', 'HS512'];
    switch (key.asymmetricKeyType) {
      case 'rsa':
        return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
      case 'rsa-pss':
        return ['PS256', 'PS384', 'PS512'];
      case 'ec': {
        const alg = EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
        return alg === undefined ? [] : [alg];
      }
      case 'ed25519':
        return ['EdDSA', 'Ed25519'];
      default:
        return [];
    }
  })();
  // A JWK that names its algorithm is used for that one only (RFC 7517 section 4.4).
  return jwkAlg === undefined ? byType : byType.filter((a) => a === jwkAlg);
}

/** The key (or key resolver) jose verifies with, and the algorithms it is asked to accept. */
function keyOf(options: JwtOptions, allowed: readonly string[], fail: (why: string) => never): { key: JWTVerifyGetKey | KeyObject; algorithms: string[] } {
  if (options.jwksUrl !== undefined) return { key: remoteKeys(new URL(options.jwksUrl), options), algorithms: [...allowed] };
  const { key, jwkAlg } = fixedKey(options.key!, fail);
  const verifiable = algorithmsOf(key, jwkAlg);
  const algorithms = allowed.filter((a) => verifiable.includes(a));
  if (algorithms.length === 0) {
    const kind = key.type === 'secret' ? 'a shared secret' : (key.asymmetricKeyType ?? 'of an unknown type');
    fail(`key (${kind}) verifies none of the allowed algorithms (${allowed.join(', ')}); it verifies ${verifiable.join(', ') || 'none restgen accepts'}.`);
  }
  return { key, algorithms };
}

/** How long a verified token is remembered at most, in ms, and how many tokens. */
const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 10_000;

/**
 * Verified tokens, remembered so that a client reusing its token costs a lookup instead of a signature
 * check (about 0.3-0.5 ms each): at most {@link REMEMBER_MS} and never past the token's `exp` (plus the
 * clock tolerance), at most {@link REMEMBER_MAX} tokens, the oldest forgotten first.
 */
function createVerifiedCache(toleranceS: number): {
  get(token: string): JwtVerdict | undefined;
  set(token: string, verdict: JwtVerdict, exp: number): void;
} {
  const entries = new Map<string, { verdict: JwtVerdict; until: number }>();
  return {
    get(token) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      if (Date.now() < entry.until) return entry.verdict;
      entries.delete(token);
      return undefined;
    },
    set(token, verdict, exp) {
      const until = Math.min((exp + toleranceS) * 1000, Date.now() + REMEMBER_MS);
      if (entries.size >= REMEMBER_MAX) entries.delete(entries.keys().next().value!);
      entries.set(token, { verdict, until });
    },
  };
}

/** `value` with every object and array in it frozen (JWT claims are plain JSON). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** A verifier for `options`; throws at startup when the options are unsafe or incomplete. */
export function createJwtVerifier(options: JwtOptions, api: string): JwtVerifier {
  const fail = (why: string): never => {
    throw new Error(`register${api}Api: options.jwt: ${why}`);
  };
  const allowed = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
  checkOptions(options, allowed, fail);
  const { key, algorithms } = keyOf(options, allowed, fail);
  const list = (v: string | readonly string[]) => (typeof v === 'string' ? v : [...v]);
  const verifyOptions = {
    issuer: list(options.issuer),
    audience: list(options.audience),
    algorithms,
    clockTolerance: options.clockTolerance ?? 0,
    requiredClaims: ['exp', 'sub'],
    ...(options.requireType !== undefined ? { typ: options.requireType } : {}),
  };
  const remembered = createVerifiedCache(options.clockTolerance ?? 0);
  return async (token) => {
    const known = remembered.get(token);
    if (known !== undefined) return known;
    try {
      const { payload } = typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions);
      // The principal's id: a number or an empty string would make unrelated tokens share one (limits, keys).
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return {
          kind: 'invalid',
          description: "The access token's sub claim must be a non-empty string.",
        };
      // Remembered and handed to every request with this token: frozen, so that code changing its own
      // request's principal (a scope added by a handler) cannot change the next request's.
      const claims = deepFreeze(payload);
      const verdict: JwtVerdict = {
        kind: 'valid',
        claims,
        principal: Object.freeze({
          id: payload.sub,
          scopes: Object.freeze(scopesOfClaims(payload)),
          claims,
        }),
      };
      remembered.set(token, verdict, payload.exp!);
      return verdict;
    } catch (error) {
      const description = describeFailure(error, options.requireType);
      if (description !== null) return { kind: 'invalid', description };
      // Only a key set that must be fetched can be unavailable; a fixed key that cannot verify the token refuses it.
      return typeof key === 'function' ? { kind: 'unavailable', error } : { kind: 'invalid', description: FIXED_KEY_REFUSED };
    }
  };
}
