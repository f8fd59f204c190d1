/**
 * @module Which parts of the client runtime (`runtime/client/`) an API's client gets, and what its index
 * re-exports of them. A feature the API lacks gets no module (no lifecycle: no `transitions.ts`; no events:
 * no `webhooks.ts`; no OAuth 2.0 client credentials flow: no `oauth.ts`; no file field: no `files.ts`); the modules copied are those
 * features' roots and every module they import, so the copy is always complete.
 */
import type { RuntimeFiles } from '../../templates/load-templates.ts';
import type { ApiIR } from '../../model/ir.ts';

/** The optional features of a client: each one adds runtime modules and exports. */
export interface ClientFeatures {
  /** Some collection has a lifecycle (transition methods, `InvalidTransitionError`). */
  readonly lifecycle: boolean;
  /** The API delivers events (webhook verification). */
  readonly events: boolean;
  /** The token URL of the API's OAuth 2.0 client credentials flow, or null when it declares none. */
  readonly tokenUrl: string | null;
  /** Some collection has a file field (multipart uploads, downloads). */
  readonly files: boolean;
}

/** What the API needs of the client runtime. */
export function clientFeatures(api: ApiIR): ClientFeatures {
  return {
    lifecycle: api.collections.some((c) => c.lifecycle !== undefined),
    events: (api.events?.length ?? 0) > 0 || api.collections.some((c) => (c.events?.length ?? 0) > 0),
    tokenUrl: api.auth.oauth2?.flows.find((f) => f.kind === 'clientCredentials')?.tokenUrl ?? null,
    files: api.collections.some((c) => c.fields.some((f) => f.type.kind === 'file')),
  };
}

/** One re-export of the client's index: a runtime module and the names it gives the user. */
export interface RuntimeExport {
  /** The module under `runtime/client/`, without extension. */
  readonly module: string;
  /** Values (classes, functions). */
  readonly values: readonly string[];
  /** Types only. */
  readonly types: readonly string[];
  /** The feature the module belongs to, or null when every client has it. */
  readonly feature: keyof ClientFeatures | null;
}

/**
 * What the client's index re-exports, per runtime module (the modules the generated code imports itself,
 * `transport` and `namespace`, follow from these). A bundler drops every export the app does not use.
 */
export const RUNTIME_EXPORTS: readonly RuntimeExport[] = [
  {
    module: 'failures',
    values: [
      'ApiError',
      'AuthenticationError',
      'BadRequestError',
      'ConflictError',
      'ConnectionError',
      'GoneError',
      'InternalServerError',
      'InvalidResponseError',
      'NotFoundError',
      'NotModifiedError',
      'PermissionDeniedError',
      'PreconditionFailedError',
      'PreconditionRequiredError',
      'RateLimitError',
      'RedirectError',
      'TimeoutError',
      'VersionBrownoutError',
    ],
    types: ['Problem'],
    feature: null,
  },
  { module: 'promises', values: [], types: ['ApiPromise', 'Filter', 'ListParams', 'Page', 'PagePromise', 'WithResponse'], feature: null },
  { module: 'etags', values: ['etagOf'], types: [], feature: null },
  {
    module: 'options',
    values: [],
    types: ['AttemptEvent', 'Auth', 'AuthGrant', 'ClientOptions', 'Credential', 'Fetch', 'FetchInit', 'RequestOptions'],
    feature: null,
  },
  { module: 'transitions', values: ['InvalidTransitionError'], types: [], feature: 'lifecycle' },
  {
    module: 'webhooks',
    values: ['WebhookHeaderError', 'WebhookSignatureError', 'WebhookTimestampError', 'WebhookVerificationError', 'verifyWebhook'],
    types: ['VerifyOptions', 'WebhookHeaders'],
    feature: 'events',
  },
  { module: 'events', values: [], types: ['EventStream', 'StreamParams', 'StreamedEvent'], feature: 'events' },
  // What the version modules import: `events.ts` itself is loaded by it on the first `stream()`.
  { module: 'event-stream', values: [], types: [], feature: 'events' },
  // `clientCredentials` itself is a function of the index, which passes the declared token URL.
  { module: 'oauth', values: [], types: ['ClientCredentials'], feature: 'tokenUrl' },
  // `withFiles` is called by the versions with file fields; the types are what users write and read.
  { module: 'files', values: [], types: ['Download', 'DownloadOptions', 'FileMetadata', 'Upload', 'UploadStream'], feature: 'files' },
];

/** The runtime modules the generated code imports directly (besides the re-exported ones). */
const IMPORTED = ['transport', 'namespace'];

/** Whether `features` include `feature` (null: every client). */
export const has = (features: ClientFeatures, feature: keyof ClientFeatures | null): boolean => feature === null || Boolean(features[feature]);

/**
 * The runtime files of a client with `features`: the roots the API needs and every module they import
 * (relative imports, followed in the runtime's own text), by their path under `runtime/` (`client/body.ts`).
 */
export function clientRuntimeFiles(runtime: RuntimeFiles, features: ClientFeatures): string[] {
  const roots = [...IMPORTED, ...RUNTIME_EXPORTS.filter((x) => has(features, x.feature)).map((x) => x.module)];
  const found = new Set<string>();
  const visit = (name: string): void => {
    const file = `client/${name}.ts`;
    if (found.has(file)) return;
    const text = runtime.get(file);
    if (text === undefined) throw new Error(`internal error: restgen's runtime/${file} is missing`);
    found.add(file);
    // Static imports, and the modules loaded on demand (`import("./transfers.js")`).
    for (const m of text.matchAll(/(?:\bfrom |\bimport\()"\.\/([a-z-]+)\.js"/g)) visit(m[1]!);
  };
  for (const root of roots) visit(root);
  return [...found].sort();
}
