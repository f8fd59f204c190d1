/**
 * The client's runtime, shared by every version: transport with timeouts and retries, same-origin
 * redirects, a capped response body, typed errors, promises with raw access, pagination. It needs nothing
 * but the platform's `fetch`, `AbortController`, `URLSearchParams`, `TextDecoder`, `setTimeout` and
 * `crypto.randomUUID` (Node 20+, browsers, Deno, Bun).
 * @module
 */
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  InvalidTransitionError,
  NotFoundError,
  NotModifiedError,
  PermissionDeniedError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitError,
  RedirectError,
  TimeoutError,
  type Problem,
} from "./failures.js";
export { etagOf } from "./etags.js";
export type { AuthOptions, ClientCredentials } from "./oauth.js";
export {
  createNamespace,
  type CollectionTypes,
  type Namespace,
  type OperationName,
  type Resource,
  type ResourceMethods,
  type TransitionMethod,
} from "./namespace.js";
export type {
  ApiConfig,
  AttemptEvent,
  ClientOptions,
  Credential,
  Fetch,
  FetchInit,
  RequestOptions,
} from "./options.js";
export {
  ApiPromise,
  PagePromise,
  type ListParams,
  type Page,
  type WithResponse,
} from "./promises.js";
export { Transport } from "./transport.js";
export {
  WebhookHeaderError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
  verifyWebhook,
  type VerifyOptions,
  type WebhookHeaders,
} from "./webhooks.js";
