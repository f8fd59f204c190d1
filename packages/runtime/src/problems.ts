/**
 * Problem answers (RFC 9457): the problem body, the problems a handler returns or throws, validation
 * issues as JSON pointers, and Fastify's own errors as problems.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { logSafely } from './contain.js';
import { isInstance, isRecord } from './guards.js';
import { pointerOf } from './shape.js';

/** One issue of a failed validation: a JSON pointer (RFC 6901, as a URI fragment) and what is wrong. */
export interface ProblemIssue {
  readonly pointer: string;
  readonly detail: string;
  /** The query parameter, for issues of a query string. */
  readonly parameter?: string;
}
/** An RFC 9457 problem body; `code` names the problem for programs. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [member: string]: unknown;
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** Builds a problem body; `title` is the status phrase, as `type: about:blank` asks. */
export function problem(status: number, code: string, detail: string, members: Readonly<Record<string, unknown>> = {}): Problem {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...members,
  };
}

/**
 * A problem a handler reports: return it or throw it, and the route answers with its status and a
 * problem+json body. {@link NotFound} (404) and {@link Conflict} (409) are the usual ones.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly members: Readonly<Record<string, unknown>>;
  constructor(status: number, code: string, detail: string, members: Readonly<Record<string, unknown>> = {}) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.members = members;
  }
  /** The problem body this answers with. */
  toProblem(): Problem {
    return problem(this.status, this.code, this.message, this.members);
  }
}
/** Whether `value` (what user code returned or threw) is an {@link HttpProblem}; false for a value that throws when asked. */
export const isProblem = (value: unknown): value is HttpProblem => isInstance(value, HttpProblem);

/** 404: the resource does not exist. `return new NotFound()` from get, replace, update or delete. */
export class NotFound extends HttpProblem {
  constructor(detail = 'The resource does not exist.') {
    super(404, 'not_found', detail);
  }
}
/** 409: a unique value is taken. `return new Conflict(detail, field)` from create, replace or update. */
export class Conflict extends HttpProblem {
  constructor(detail = 'A resource with the same unique value exists.', field?: string) {
    super(409, 'conflict', detail, field === undefined ? {} : { field });
  }
}
/**
 * 409: the resource is not in a state the transition starts from. Give the current state (newest name) if
 * known; the runtime shows it as the version called does and adds the transitions open from it.
 */
export class InvalidTransition extends HttpProblem {
  readonly state: string | undefined;
  constructor(state?: string, detail?: string) {
    super(409, 'invalid_transition', detail ?? 'The resource is not in a state this transition starts from.');
    this.state = state;
  }
}
/** 412: the resource changed since the client read it (its `If-Match` names another ETag). */
export class PreconditionFailed extends HttpProblem {
  constructor(detail = 'The resource changed since it was read: its ETag no longer matches If-Match. Read it again.') {
    super(412, 'precondition_failed', detail);
  }
}
/** 400 with the issues listed, for input only the handler can judge (a bad cursor). */
export class BadRequest extends HttpProblem {
  constructor(detail: string, errors: readonly ProblemIssue[] = []) {
    super(400, 'invalid_request', detail, { errors });
  }
}

/** Answers with a problem body, its status and `application/problem+json`. */
export function send(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.code(body.status).type('application/problem+json').send(body);
}

/**
 * Whether `issue` is a required member that is absent. JSON has no `undefined`, so zod's "expected string,
 * received undefined" on a parsed body or query always means the member was left out: the client should read
 * "required", not a type mismatch.
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if (issue.code !== 'invalid_type') return false;
  // Later zod 4 releases keep the input on the issue; zod 4.0 only words it (typed for both).
  return 'input' in issue ? issue.input === undefined : / received undefined$/.test((issue as z.core.$ZodIssueBase).message);
}

/** Every issue of a failed parse, each with a JSON pointer; unknown keys become one issue each. */
export function issuesOf(error: z.ZodError, where: 'body' | 'query'): ProblemIssue[] {
  const out: ProblemIssue[] = [];
  const add = (path: readonly PropertyKey[], detail: string) => {
    const pointer = pointerOf(path);
    out.push(where === 'query' && path.length > 0 ? { pointer, detail, parameter: String(path[0]) } : { pointer, detail });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...issue.path, key], 'unknown field: this version does not accept it');
    else if (isMissing(issue) && issue.code === 'invalid_type')
      add(
        issue.path,
        `Required: ${issue.path.length === 0 ? `the ${where === 'query' ? 'query string' : 'request body'} is` : `this ${where === 'query' ? 'parameter' : 'field'} is`} missing (expected ${issue.expected}).`,
      );
    else add(issue.path, issue.message);
  }
  return out;
}

/** Answers 400 `validation_failed` with every issue of a failed parse. */
export function invalid(reply: FastifyReply, error: z.ZodError, where: 'body' | 'query'): FastifyReply {
  const errors = issuesOf(error, where);
  const what = where === 'body' ? 'request body' : 'query string';
  return send(reply, problem(400, 'validation_failed', `The ${what} is invalid (${errors.length} issue${errors.length === 1 ? '' : 's'}).`, { errors }));
}

/**
 * Rules a collection's request bodies must keep that no schema can state (the built-in webhook endpoints: a
 * destination address that resolves to a private network). Kept on the collection's handlers table under this
 * key; a body that fails its schema is judged by them too, so the client learns of every problem at once.
 */
export const BODY_RULES: unique symbol = Symbol('restgen body rules');

/** The issues the body rules of a collection find, for `version`. */
export type BodyRules = (body: unknown, version: string) => Promise<readonly ProblemIssue[]>;

/**
 * `invalid`, with the issues the collection's body rules find besides the schema's: a rule's issue at a pointer the
 * schema reported takes the schema's place (it says more: the value sent, what is accepted instead); one above a
 * pointer the schema reported is not added.
 */
export async function invalidBody(reply: FastifyReply, error: z.ZodError, rules: BodyRules | undefined, body: unknown, version: string): Promise<FastifyReply> {
  if (rules === undefined) return invalid(reply, error, 'body');
  const ruled = await rules(body, version);
  const errors = issuesOf(error, 'body').filter((e) => !ruled.some((i) => i.pointer === e.pointer));
  const more = ruled.filter((i) => !errors.some((e) => e.pointer.startsWith(`${i.pointer}/`)));
  const all = [...more, ...errors];
  return send(reply, problem(400, 'validation_failed', `The request body is invalid (${all.length} issue${all.length === 1 ? '' : 's'}).`, { errors: all }));
}

/** The 500 every failure of the server's own code answers: it tells the client nothing. */
export const INTERNAL: Problem = problem(500, 'internal_error', 'The server failed to answer; the error has been logged.');

/** Answers 500 without details; `what` (the handler or hook, the pointer) goes to the log with the error. */
export function internal(request: FastifyRequest, reply: FastifyReply, what: Readonly<Record<string, unknown>>, message: string): FastifyReply {
  logSafely(request.log, 'error', what, message);
  return send(reply, INTERNAL);
}

const CODES: Readonly<Record<string, readonly [status: number, code: string]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'bad_request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'bad_request'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: [415, 'unsupported_media_type'],
};

/**
 * Fastify's own request errors (bad JSON, 413, 415, ...) as problems with details of our own wording;
 * anything else, whatever `statusCode` it carries (user code's errors among them), is a logged 500 that
 * tells nothing.
 */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): FastifyReply {
  if (isProblem(error)) return send(reply, error.toProblem());
  const code = codeOf(error);
  const known = Object.hasOwn(CODES, code) ? CODES[code] : undefined;
  if (known) {
    const [status, name] = known;
    const detail =
      status === 413
        ? `The request body is larger than ${bodyLimit} bytes.`
        : status === 415
          ? `Send the body as application/json in UTF-8 (got ${JSON.stringify(String(request.headers['content-type'] ?? 'none').slice(0, 100))}).`
          : code.endsWith('JSON_BODY')
            ? 'The request body is not valid JSON.'
            : 'The request is malformed.';
    return send(reply, problem(status, name, detail));
  }
  logSafely(request.log, 'error', { err: error }, 'request failed');
  return send(reply, INTERNAL);
}

/** The `code` of an error Fastify raised; '' for anything else, a value whose `code` throws when read included. */
function codeOf(error: unknown): string {
  try {
    return isRecord(error) && typeof error['code'] === 'string' ? error['code'] : '';
  } catch {
    return '';
  }
}
