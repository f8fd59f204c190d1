/**
 * The errors the client throws: one class per kind of failure, all extending {@link ApiError}, and the
 * reading of a failed response's problem body (RFC 9457).
 * @module
 */

/** An RFC 9457 problem body, as the server sends it with every error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  /** What went wrong, for programs: `invalid_transition`, `version_brownout`, ... */
  code?: string;
  /** Validation issues: a JSON pointer into the request and what is wrong there. */
  errors?: { pointer: string; detail: string }[];
  [member: string]: unknown;
}

/**
 * The base of every error the client throws. `status` is the HTTP status (0 when no response arrived),
 * `headers` the response headers and `problem` the parsed problem body (null when there was none).
 */
export class ApiError extends Error {
  override name = "ApiError";
  // Declared, not fields: a bundle then carries no field declarations for them.
  declare readonly status: number;
  declare readonly headers: Headers;
  declare readonly problem: Problem | null;
  constructor(
    message: string,
    status: number,
    headers: Headers,
    problem: Problem | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = status;
    this.headers = headers;
    this.problem = problem;
  }
}

/** 400: the request was malformed or failed validation; `problem.errors` lists every issue. */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/**
 * 401: the credential is missing or refused (also by a token endpoint). `oauthError`: the token endpoint's
 * `error` (`invalid_client`, ...), or the `error` of the API's challenge (`invalid_token`), or null.
 */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
  get oauthError(): string | null {
    const error = this.problem?.["error"];
    // RFC 6750's parameter: any case (RFC 9110 section 11.2), a token or quoted (RFC 6749 5.2: no quote inside).
    return typeof error === "string"
      ? error
      : (/\berror\s*=\s*"?([^\s,"]+)/i.exec(
          this.headers.get("www-authenticate") ?? "",
        )?.[1] ?? null);
  }
}
/** 403: the credential lacks a scope this operation needs. */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
/** 404: no such resource (or path). */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 409: a unique value is taken, or the resource is not in a state the transition starts from. Never retried. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
/** 410: the version is gone: past its sunset (`problem.code`: `version_sunset`), or in a brownout. Never retried. */
export class GoneError extends ApiError {
  override name = "GoneError";
}
/** 410 `version_brownout`: a deprecated version refused for a planned window (`Retry-After`: its end). Never retried. */
export class VersionBrownoutError extends GoneError {
  override name = "VersionBrownoutError";
}
/** 304: the resource still has the ETag sent as `ifNoneMatch`; the copy held is current. Never retried. */
export class NotModifiedError extends ApiError {
  override name = "NotModifiedError";
}
/** 412: the resource no longer has the ETag sent as `ifMatch` (it changed meanwhile): read it again. Never retried. */
export class PreconditionFailedError extends ApiError {
  override name = "PreconditionFailedError";
}
/** 428: this write needs `ifMatch` (the collection requires conditional writes). Never retried. */
export class PreconditionRequiredError extends ApiError {
  override name = "PreconditionRequiredError";
}
/** 429: too many requests; thrown once the retries are used up or `Retry-After` exceeds `maxRetryAfter`. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** 5xx: the server failed. */
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}
/** No response: the connection failed. `cause` holds the platform's error. Status 0. */
export class ConnectionError extends ApiError {
  override name = "ConnectionError";
  constructor(message: string, cause: unknown) {
    super(message, 0, new Headers(), null, { cause });
  }
}
/** No response within `timeout` milliseconds (per attempt, credential and body included). */
export class TimeoutError extends ConnectionError {
  override name = "TimeoutError";
}
/**
 * A redirect not followed: to another origin (nothing is sent there: no credential, body or
 * Idempotency-Key), or more than 5. `location`: where to (null where browsers hide it). Never retried.
 */
export class RedirectError extends ApiError {
  override name = "RedirectError";
  declare readonly location: string | null;
  constructor(message: string, response: Response, location: string | null) {
    super(message, response.status, response.headers, null);
    this.location = location;
  }
}
/**
 * A successful status whose body is not what the operation answers (not JSON, empty, larger than
 * `maxResponseBytes`, not a list page, a cursor already seen). Never retried: it would answer the same.
 */
export class InvalidResponseError extends ApiError {
  override name = "InvalidResponseError";
  constructor(why: string, r: Response, what: string) {
    super(`${r.status}: ${why} (${what})`, r.status, r.headers, null);
  }
}

/**
 * The error class of each status (other statuses, 405, 413, 415, ..., are plain ApiErrors), and before
 * it of `"<status> <problem code>"`. A request that knows more precise errors passes them to
 * {@link errorFor} (a transition's `409 invalid_transition`), so that this module need not know theirs.
 */
export const ERRORS: Record<string, typeof ApiError> = {
  304: NotModifiedError,
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  "410 version_brownout": VersionBrownoutError,
  412: PreconditionFailedError,
  428: PreconditionRequiredError,
  429: RateLimitError,
};

/** A member of a problem body as text: the body comes from the server (or a proxy) and may hold anything. */
const shown = (value: unknown): string | undefined =>
  typeof value === "string" ? value : JSON.stringify(value);

/**
 * The error of a failed (non-2xx) response whose body parsed as `body` (undefined: not JSON); its status
 * (and problem code) chooses the class, from `own` first (the request's), then {@link ERRORS}.
 */
export function errorFor(
  r: Response,
  body: unknown,
  what: string,
  own?: Record<string, typeof ApiError>,
): ApiError {
  // Only an object is a problem body (not an array, a string or a number; nor a proxy's HTML page).
  const problem =
    (body as object | null)?.constructor === Object ? (body as Problem) : null;
  const { status } = r;
  const { title, detail, errors, code } = problem ?? {};
  const Class =
    own?.[`${status} ${shown(code)}`] ??
    ERRORS[`${status} ${shown(code)}`] ??
    ERRORS[status] ??
    (status > 499 ? InternalServerError : ApiError);
  let message = `${status} ${typeof title === "string" ? title : r.statusText || "Error"}${typeof detail === "string" ? `: ${detail}` : ""} (${what})`;
  // One line per validation issue (one that is not an object is shown as text; null is left out).
  for (const issue of [errors].flat())
    if (issue != null)
      message += `\n  ${typeof issue === "object" ? `${shown((issue as Issue).pointer) || "/"}: ${shown((issue as Issue).detail)}` : issue}`;
  return new Class(message, status, r.headers, problem);
}

/** One validation issue of a problem body, as it may arrive (anything at all). */
type Issue = { readonly pointer?: unknown; readonly detail?: unknown };
