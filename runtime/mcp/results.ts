/**
 * Tool results: what the API answered, as MCP's `CallToolResult`. Data goes out as structured content (the resource
 * or the page, exactly as the generated client returns it) and as its JSON text; a failure is a result with
 * `isError: true` whose structured content is the API's problem (status, code, detail, `errors[]` with JSON
 * pointers into the tool's arguments), so an agent can correct its call.
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** One issue of a refused call: where in the tool's arguments (a JSON pointer as a URI fragment) and what is wrong. */
export interface Issue {
  pointer: string;
  detail: string;
  /** The list query parameter it concerns, when the API names one. */
  parameter?: string;
}

/** The structured content of a failed call: the API's problem (RFC 9457) with the HTTP status (0: no answer). */
export interface Failure {
  status: number;
  code: string;
  title?: string;
  detail: string;
  errors?: Issue[];
  [member: string]: unknown;
}

/** The most issues a result lists: enough to correct a call, bounded whatever a peer sends. */
export const MAX_ISSUES = 50;

/** The JSON Schema of {@link Failure}, which every tool's output schema admits beside its data. */
export const FAILURE_SCHEMA = {
  type: "object",
  description:
    "The call failed (the result has isError: true): the API's problem, RFC 9457.",
  properties: {
    status: {
      type: "integer",
      description: "The HTTP status; 0 when the API did not answer.",
    },
    code: {
      type: "string",
      description:
        "What went wrong, for programs: validation_failed, not_found, invalid_transition, ...",
    },
    title: { type: "string" },
    detail: { type: "string" },
    errors: {
      type: "array",
      description:
        "Validation issues: a JSON pointer into the tool's arguments and what is wrong there.",
      items: {
        type: "object",
        properties: {
          pointer: { type: "string" },
          detail: { type: "string" },
          parameter: { type: "string" },
        },
        required: ["pointer", "detail"],
      },
    },
  },
  required: ["status", "code", "detail"],
} as const;

/** A successful call's result: `data` as structured content and JSON text, and the resource's ETag when it has one. */
export function answered(data: unknown, etag: string | null): CallToolResult {
  const text = JSON.stringify(data);
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (etag !== null)
    content.push({
      type: "text",
      text: `ETag: ${etag} (pass it as ifMatch to write only while the resource is unchanged)`,
    });
  return {
    content,
    structuredContent: data as Record<string, unknown>,
    ...(etag !== null && { _meta: { etag } }),
  };
}

/** A call that answered nothing (a delete). */
export function done(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

/** A failed call's result, its failure as structured content and JSON text. */
export function refused(failure: Failure): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(failure) }],
    structuredContent: failure,
  };
}

/** What the generated client throws: an `ApiError` (or one of its subclasses), read without importing it. */
interface ClientError {
  readonly name: string;
  readonly message: string;
  readonly status: number;
  readonly problem: Record<string, unknown> | null;
}

const isClientError = (error: unknown): error is ClientError =>
  error instanceof Error &&
  typeof (error as Partial<ClientError>).status === "number" &&
  "problem" in error;

/** The code of a failure without a problem body, by the client's error class. */
const CODES: Readonly<Record<string, string>> = {
  ConnectionError: "connection_failed",
  TimeoutError: "timeout",
  InvalidResponseError: "invalid_response",
  RedirectError: "redirect_refused",
};

/**
 * The issues of a problem, each pointer turned into one into the tool's arguments: the API points into the request
 * body, which the tool takes as `body` (`#/quantity` is `#/body/quantity`); a query parameter's issue (a list's)
 * points at the argument of that name already.
 */
function issuesOf(value: unknown, hasBody: boolean): Issue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.slice(0, MAX_ISSUES).flatMap((item: unknown): Issue[] => {
    if (typeof item !== "object" || item === null) return [];
    const { pointer, detail, parameter } = item as Record<string, unknown>;
    if (typeof pointer !== "string" || typeof detail !== "string") return [];
    const query = typeof parameter === "string";
    const at =
      hasBody && !query && pointer.startsWith("#")
        ? `#/body${pointer.slice(1)}`
        : pointer;
    return [{ pointer: at, detail, ...(query && { parameter }) }];
  });
}

/**
 * The result of a call that threw: the API's problem when it answered one, else what the client knows (no answer,
 * an answer that is not the API's). `hasBody`: the tool takes a `body` argument (where the API's pointers point).
 */
export function failed(error: unknown, hasBody: boolean): CallToolResult {
  if (!isClientError(error))
    return refused({
      status: 0,
      code: "client_error",
      detail: error instanceof Error ? error.message : String(error),
    });
  const problem = error.problem ?? {};
  const errors = issuesOf(problem["errors"], hasBody);
  const detail = problem["detail"];
  // A token endpoint's refusal names its OAuth error (`invalid_client`) where an API's problem has its code.
  const code = problem["code"] ?? problem["error"];
  return refused({
    ...problem,
    status: error.status,
    code:
      typeof code === "string"
        ? code
        : (CODES[error.name] ?? `http_${error.status}`),
    detail: typeof detail === "string" ? detail : error.message,
    ...(errors !== undefined && { errors }),
  });
}
