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
  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
    readonly problem: Problem | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 400: the request was malformed or failed validation; `problem.errors` lists every issue. */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/**
 * The `error` parameter of a `WWW-Authenticate` challenge (RFC 6750), or null. RFC 9110 section 11.2: the
 * name is matched case-insensitively and the value is a token or a quoted-string (`error=invalid_token`).
 */
function challengeError(header: string | null): string | null {
  if (header === null) return null;
  const found =
    /(?:^|[\s,])error\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/i.exec(header);
  if (found === null) return null;
  return found[1] !== undefined
    ? found[1].replace(/\\(.)/g, "$1")
    : (found[2] ?? null);
}

/**
 * 401: the credential is missing or not accepted; also a token endpoint that refused the client's
 * credentials. `oauthError` is the OAuth error code: the token endpoint's `error` (`invalid_client`,
 * `invalid_scope`, ...) or the API's challenge (`invalid_token`), null when there was none.
 */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
  readonly oauthError: string | null;
  constructor(
    message: string,
    status: number,
    headers: Headers,
    problem: Problem | null,
    options?: { cause?: unknown },
  ) {
    super(message, status, headers, problem, options);
    this.oauthError =
      typeof problem?.["error"] === "string"
        ? problem["error"]
        : challengeError(headers.get("www-authenticate"));
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
/** 409 `invalid_transition`: the resource is in `state`, from which the transitions `allowed` are open. */
export class InvalidTransitionError extends ConflictError {
  override name = "InvalidTransitionError";
  /** The state the resource is in, as the version called shows it. */
  get state(): string | null {
    const state = this.problem?.["state"];
    return typeof state === "string" ? state : null;
  }
  /** The transitions of the version called that start from that state. */
  get allowed(): string[] {
    const allowed = this.problem?.["allowed"];
    return Array.isArray(allowed)
      ? allowed.filter((a): a is string => typeof a === "string")
      : [];
  }
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
}
/** No response within `timeout` milliseconds (per attempt, credential and body included). */
export class TimeoutError extends ConnectionError {
  override name = "TimeoutError";
}
/**
 * A redirect the client does not follow: to another origin (the credential, the body and the
 * Idempotency-Key are never sent there), or more than 5 in a row. `location` is where the server pointed
 * (null where the platform hides it, as browsers do). Never retried.
 */
export class RedirectError extends ApiError {
  override name = "RedirectError";
  constructor(
    message: string,
    status: number,
    headers: Headers,
    readonly location: string | null,
  ) {
    super(message, status, headers, null);
  }
}
/**
 * A successful status whose body is not what the operation answers: not JSON, empty, larger than
 * `maxResponseBytes`, or a list page without a `data` array or with a cursor already seen. Never retried:
 * the same request would get the same answer.
 */
export class InvalidResponseError extends ApiError {
  override name = "InvalidResponseError";
}

// Other statuses (405, 410, 413, 415, ...) are plain ApiErrors.
const ERRORS: Readonly<Record<number, typeof ApiError>> = {
  304: NotModifiedError,
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  428: PreconditionRequiredError,
  429: RateLimitError,
};

function parseProblem(text: string): Problem | null {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Problem)
      : null;
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone describes the error.
    return null;
  }
}

/**
 * One line of the message per validation issue. The body comes from the server (or a proxy): an issue
 * that is not an object is shown as text (a string) or left out, never read as one.
 */
function issueLine(issue: unknown): string {
  if (typeof issue === "string") return `\n  ${issue}`;
  if (typeof issue !== "object" || issue === null) return "";
  const { pointer, detail } = issue as { pointer?: unknown; detail?: unknown };
  return `\n  ${typeof pointer === "string" && pointer !== "" ? pointer : "/"}: ${String(detail)}`;
}

/** The error of a failed (non-2xx) response whose body was read as `text`. */
export function errorFor(
  response: Response,
  text: string,
  what: string,
): ApiError {
  const problem = parseProblem(text);
  const { status } = response;
  const title =
    typeof problem?.title === "string"
      ? problem.title
      : response.statusText || "Error";
  const detail =
    typeof problem?.detail === "string" ? `: ${problem.detail}` : "";
  const issues = Array.isArray(problem?.errors)
    ? (problem.errors as unknown[]).map(issueLine).join("")
    : "";
  const Class =
    status === 409 && problem?.["code"] === "invalid_transition"
      ? InvalidTransitionError
      : (ERRORS[status] ?? (status >= 500 ? InternalServerError : ApiError));
  return new Class(
    `${status} ${title}${detail} (${what})${issues}`,
    status,
    response.headers,
    problem,
  );
}

/** The messages of an error and its causes, for a ConnectionError's message. */
export function causeText(cause: unknown): string {
  const parts: string[] = [];
  for (
    let c = cause, depth = 0;
    c instanceof Error && depth < 3;
    c = c.cause, depth++
  )
    parts.push(c.message);
  return parts.join(": ") || String(cause);
}
