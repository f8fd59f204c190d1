/**
 * @module Components every operation shares: the problem+json schema (RFC 9457), one response per error
 * status, the headers those responses carry, and the security schemes. Operations refer to them by
 * name, which keeps a document of a large API small.
 */
import { takesBearer, type AuthIR, type OAuth2IR } from '../../model/ir.ts';
import { ref, type JsonObject } from './json.ts';
import { withXmlMedia } from './xml.ts';

/** The errors a generated server answers, by response component name: the status and what it means. */
export const ERRORS = {
  BadRequest: { status: 400, text: 'The request is malformed or fails validation; `errors` lists every problem.' },
  Unauthorized: { status: 401, text: 'The credential is missing (where one is needed) or was not accepted.' },
  Forbidden: { status: 403, text: 'The credential lacks a scope this operation needs; `scopes` lists them.' },
  NotFound: { status: 404, text: 'No resource has this id.' },
  NotAcceptable: {
    status: 406,
    text: '`Accept` allows none of the media types this API answers in (`detail` names them). The problem is `application/problem+json` whatever `Accept` says.',
  },
  Conflict: { status: 409, text: 'A field that must be unique already has this value; `field` names it.' },
  InvalidTransition: {
    status: 409,
    text: 'The resource is not in a state this transition starts from (`invalid_transition`); `state` is its state and `allowed` the transitions open from it.',
  },
  Gone: { status: 410, text: 'This API version is past its sunset date and no longer served.' },
  Brownout: {
    status: 410,
    text: 'This API version is past its sunset date, or inside one of its brownout windows (`code: version_brownout`): planned outages that warn its clients before the sunset. Retry after `Retry-After` seconds, or move to a newer version.',
  },
  PreconditionFailed: {
    status: 412,
    text: 'The resource changed since it was read: its ETag no longer matches `If-Match` (or matches `If-None-Match`). Read it again.',
  },
  ContentTooLarge: { status: 413, text: "The request body is too large, or a file in it is larger than its field's `maxBytes` (counted as it streams)." },
  RangeNotSatisfiable: { status: 416, text: 'No byte of the file is in the range asked for; `Content-Range` gives its size (`bytes */<size>`).' },
  UnsupportedMediaType: {
    status: 415,
    text: "The request body is not in a media type this operation takes (see its request body), or a file's type is not one its field takes (by the part's `Content-Type` and its leading bytes).",
  },
  IdempotencyKeyReused: { status: 422, text: 'This `Idempotency-Key` was used before with a different body.' },
  PreconditionRequired: { status: 428, text: "This write needs `If-Match` with the resource's current ETag." },
  TooManyRequests: {
    status: 429,
    text: 'The rate limit is exceeded, or this address sent too many rejected credentials; retry after `Retry-After` seconds.',
  },
  InternalServerError: { status: 500, text: 'The server failed (or produced an answer its schema does not allow); no details are disclosed.' },
  ServiceUnavailable: {
    status: 503,
    text: 'The handler did not answer within the request timeout, or a store it needs is unavailable; retry after `Retry-After` seconds.',
  },
} as const;

/** An error the document can list, by its response component name. */
export type ErrorKind = keyof typeof ERRORS;

/** The security scheme component names. */
export const SCHEME = { bearer: 'bearerAuth', apiKey: 'apiKeyAuth', oauth2: 'oauth2' } as const;

/** The `oauth2` security scheme: every declared flow with its URLs, each listing every declared scope. */
function oauth2Scheme(oauth2: OAuth2IR): JsonObject {
  const scopes = Object.fromEntries(oauth2.scopes.map((s) => [s.name, s.description]));
  const flows = Object.fromEntries(oauth2.flows.map(({ kind, ...urls }) => [kind, { ...urls, scopes }]));
  return {
    type: 'oauth2',
    description: oauth2.description ?? 'OAuth 2.0 access tokens, sent as `Authorization: Bearer <token>`.',
    flows,
  };
}

/** The `components.securitySchemes` of an API's auth settings (empty when it has none). */
export function buildSecuritySchemes(auth: AuthIR): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  if (auth.oauth2) out[SCHEME.oauth2] = oauth2Scheme(auth.oauth2);
  if (auth.bearer) {
    out[SCHEME.bearer] = {
      type: 'http',
      scheme: 'bearer',
      description: auth.bearer.description ?? 'A token sent as `Authorization: Bearer <token>`.',
    };
  }
  if (auth.apiKey) {
    out[SCHEME.apiKey] = {
      type: 'apiKey',
      in: 'header',
      name: auth.apiKey.header,
      description:
        auth.apiKey.description ??
        `An API key sent in the \`${auth.apiKey.header}\` header.${auth.oauth2 ? ' The principal it stands for needs the scopes that the operation lists under `oauth2`.' : ''}`,
    };
  }
  return out;
}

/** The problem+json schema: every error body. */
export function buildProblemSchema(): JsonObject {
  return {
    type: 'object',
    description: 'An error, as RFC 9457 problem details.',
    properties: {
      type: { type: 'string', format: 'uri-reference', description: 'A URI reference naming the kind of problem (`about:blank` when the status says it all).' },
      title: { type: 'string', description: 'A short summary of the kind of problem.' },
      status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code.' },
      detail: { type: 'string', description: 'What went wrong this time.' },
      code: { type: 'string', description: 'The kind of problem, for programs: `validation_failed`, `not_found`, ...' },
      scopes: { type: 'array', items: { type: 'string' }, description: '403 only: the scopes the credential lacks.' },
      field: { type: 'string', description: '409 only, when known: the field whose value is taken.' },
      state: { type: 'string', description: '409 `invalid_transition` only: the state the resource is in.' },
      allowed: { type: 'array', items: { type: 'string' }, description: '409 `invalid_transition` only: the transitions open from that state.' },
      errors: {
        type: 'array',
        description: 'Validation only: one entry per problem found.',
        items: {
          type: 'object',
          properties: {
            pointer: {
              type: 'string',
              description: 'Where the problem is: a JSON Pointer (RFC 6901) in URI fragment form, like `#/quantity`.',
            },
            detail: { type: 'string', description: 'What is wrong with it.' },
            parameter: { type: 'string', description: 'For a query string: the parameter at fault.' },
          },
          required: ['pointer', 'detail'],
        },
      },
    },
    required: ['type', 'title', 'status', 'detail', 'code'],
  };
}

/**
 * Every header component a document may use (it keeps those it refers to); `version`: the version of a
 * document whose API is versioned by a header (its answers echo it).
 */
export function buildHeaders(version?: string): Record<string, JsonObject> {
  const int = (description: string): JsonObject => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    RetryAfter: int('Seconds to wait before trying again.'),
    RateLimitLimit: int('Requests allowed in the current window.'),
    RateLimitRemaining: int('Requests left in the current window.'),
    RateLimitReset: int('Seconds until the window resets.'),
    RateLimitPolicy: { description: 'The limit as `<requests>;w=<window seconds>`.', schema: { type: 'string' } },
    Location: { description: 'The path of the new resource.', schema: { type: 'string', format: 'uri-reference' } },
    IdempotentReplayed: {
      description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
      schema: { type: 'string', enum: ['true'] },
    },
    Deprecation: {
      description: 'When this API version was deprecated, as `@<unix seconds>` (RFC 9745).',
      schema: { type: 'string' },
    },
    Sunset: {
      description: 'When this API version stops being served, as an HTTP-date (RFC 8594).',
      schema: { type: 'string' },
    },
    Link: {
      description:
        'Where to read how to move off this deprecated version: `<url>; rel="deprecation"` (RFC 9745) and, with a sunset, `<url>; rel="sunset"` (RFC 8594).',
      schema: { type: 'string' },
    },
    ...(version === undefined
      ? {}
      : {
          Version: {
            description:
              "The version that answered: the one the version header named (a date names the newest released version on or before it), else the caller's pinned version, else the default.",
            schema: { type: 'string', enum: [version] },
          },
        }),
    ETag: {
      description:
        "The resource's strong entity tag: the same in every version that shows the same stored revision. Send it as `If-Match` to write only if nothing changed meanwhile.",
      schema: { type: 'string' },
    },
  };
}

/** The header names of the rate-limit group, as sent on the wire, and their components. */
export const RATE_LIMIT_HEADERS: readonly (readonly [string, string])[] = [
  ['Retry-After', 'RetryAfter'],
  ['RateLimit-Limit', 'RateLimitLimit'],
  ['RateLimit-Remaining', 'RateLimitRemaining'],
  ['RateLimit-Reset', 'RateLimitReset'],
  ['RateLimit-Policy', 'RateLimitPolicy'],
];

/** What else an error response of an operation carries, besides its status's own headers. */
export interface ErrorVariant {
  /** The operation is rate limited: answers given after the limit is counted carry RateLimit headers. */
  readonly limited: boolean;
  /** The version is deprecated: every answer carries Deprecation (and Sunset when one is set). */
  readonly deprecated: boolean;
  readonly sunset: boolean;
  /** The deprecated version has a docs page: every answer carries Link. */
  readonly link: boolean;
  /** The versioning header every answer echoes (header versioning), or null. */
  readonly echo: string | null;
}

/** Statuses answered before the rate limit is counted (lifecycle and credentials): never with RateLimit headers. */
const BEFORE_LIMIT: ReadonlySet<number> = new Set([401, 403, 410]);

/** The component name of an error response: the error's name, `RateLimited` when it carries the limit's headers. */
export function errorResponseName(kind: ErrorKind, variant: ErrorVariant): string {
  return kind + (variant.limited && !BEFORE_LIMIT.has(ERRORS[kind].status) ? 'RateLimited' : '');
}

/** The response component of an error, problem+json body (and problem+xml, `xml`) and its headers. */
export function buildErrorResponse(kind: ErrorKind, problemSchema: string, auth: AuthIR, variant: ErrorVariant, xml = false): JsonObject {
  const status = ERRORS[kind].status;
  const headers: Record<string, JsonObject> = {};
  if (status === 429 || status === 503 || kind === 'Brownout') headers['Retry-After'] = ref('headers', 'RetryAfter');
  if (status === 416) headers['Content-Range'] = { description: 'The size of the file: `bytes */<size>`.', schema: { type: 'string' } };
  if (variant.limited && !BEFORE_LIMIT.has(status))
    for (const [wire, component] of RATE_LIMIT_HEADERS) if (wire !== 'Retry-After') headers[wire] = ref('headers', component);
  if (status === 401 || status === 403) {
    const schemes = [takesBearer(auth) ? 'Bearer' : undefined, auth.apiKey ? 'ApiKey' : undefined].filter(Boolean).join(', ');
    const why = status === 401 ? `The schemes accepted: ${schemes}.` : 'The challenge, with `error="insufficient_scope"` and the scopes needed.';
    headers['WWW-Authenticate'] = { description: why, schema: { type: 'string' } };
  }
  if (variant.deprecated) headers['Deprecation'] = ref('headers', 'Deprecation');
  if (variant.deprecated && variant.sunset) headers['Sunset'] = ref('headers', 'Sunset');
  if (variant.link) headers['Link'] = ref('headers', 'Link');
  // Every answer after the version was chosen; a 400 may also be for a header that names no version.
  if (variant.echo !== null) headers[variant.echo] = ref('headers', 'Version');
  // A server that verifies JWTs answers 503 while the identity provider's keys cannot be fetched.
  const idp = status === 503 && auth.oauth2 ? " Also while the identity provider's signing keys (JWKS) cannot be fetched." : '';
  return {
    description: ERRORS[kind].text + idp,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    // A 406 is answered as problem+json whatever the API serves: the request allowed none of its formats.
    content: xml && status !== 406 ? withXmlMedia(problemContent(problemSchema)) : problemContent(problemSchema),
  };
}

const problemContent = (schema: string): JsonObject => ({ 'application/problem+json': { schema: ref('schemas', schema) } });
