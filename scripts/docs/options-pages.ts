/**
 * @module The reference pages of the generated server's options (`ServerOptions` and the types beside it in
 * `@restgen/runtime`) and of the generated client's options (`ClientOptions`, `RequestOptions`, ... in
 * runtime/client), read from the interfaces and their JSDoc.
 */
import { fileURLToPath } from 'node:url';
import { generatedHeader } from './markdown.ts';
import { typeSection } from './type-tables.ts';
import { openSources, readType } from './typescript-members.ts';

const at = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

/** Which interfaces of which file each page shows, in order. */
const SERVER: readonly (readonly [string, readonly string[]])[] = [
  ['packages/runtime/src/types.ts', ['ServerOptions', 'AuthFailureLimit', 'OpenApiOptions', 'WebhookOptions', 'StreamOptions']],
  ['packages/runtime/src/webhook-dispatch.ts', ['DispatchTiming']],
  ['packages/runtime/src/jwt-claims.ts', ['JwtOptions']],
  ['packages/runtime/src/redis-client.ts', ['RedisClient']],
  ['packages/runtime/src/webhooks.ts', ['DispatcherOptions']],
  ['packages/runtime/src/webhook-dispatch.ts', ['WebhookDispatcher']],
  ['packages/runtime/src/webhook-store.ts', ['Outbox', 'Delivery', 'Claimed', 'Fairness', 'EndpointStore', 'EndpointRecord']],
  ['packages/runtime/src/transactional-outbox.ts', ['TransactionalOutbox', 'OutboxEvent']],
  ['packages/runtime/src/event-log.ts', ['EventLog', 'TransactionalEventLog', 'NewEvent', 'LoggedEvent', 'LogPage', 'Retention']],
  ['packages/runtime/src/idempotency-store.ts', ['IdempotencyStore', 'IdempotencyRecord']],
  ['packages/runtime/src/types.ts', ['VersionUse']],
  ['packages/runtime/src/otel.ts', ['VersionMetricsOptions']],
  ['packages/runtime/src/older-data.ts', ['OutdatedValue']],
  ['packages/runtime/src/memory-store.ts', ['MemoryOptions']],
  ['packages/runtime/src/principal.ts', ['Principal']],
  [
    'packages/runtime/src/types.ts',
    ['Credential', 'HandlerContext', 'HandlerEvents', 'Condition', 'ListQuery', 'Page', 'CollectionHandlers', 'TransitionHandler'],
  ],
];

const CLIENT: readonly (readonly [string, readonly string[]])[] = [
  ['runtime/client/options.ts', ['ClientOptions', 'RequestOptions', 'AttemptEvent', 'Credential', 'Fetch', 'Auth', 'AuthGrant']],
  ['runtime/client/oauth.ts', ['ClientCredentials']],
  ['runtime/client/webhooks.ts', ['VerifyOptions']],
  ['runtime/client/events.ts', ['StreamParams']],
];

function sections(spec: readonly (readonly [string, readonly string[]])[]): string[] {
  const project = openSources(spec.map(([file]) => at(file)));
  return spec.flatMap(([file, names]) => names.map((name) => typeSection(readType(project, at(file), name), 2)));
}

/** The server options page. */
export function serverOptionsPage(): string {
  return [
    generatedHeader('the interfaces and JSDoc of packages/runtime/src'),
    '# Server options',
    '',
    'The third argument of the generated `register<Name>Api(app, handlers, options)`. Its type, `<Name>Options`, is',
    '`ServerOptions` below, plus what your API needs: at least one of `authenticate`, `jwt` or `apiKeys` when the API',
    'takes credentials, and `migrations` when its version markers need hooks (a missing one does not compile, and the',
    'server refuses to start without it). How they work together is in [the generated server](../guide/server.md) and',
    '[deploying](../guide/deploying.md). The types handlers code against follow the options.',
    '',
    ...sections(SERVER),
  ].join('\n');
}

/** The client options page. */
export function clientOptionsPage(): string {
  return [
    generatedHeader('the interfaces and JSDoc of runtime/client'),
    '# Client options',
    '',
    'The options of the generated `create<Name>Client(options)` and, all but `baseUrl` and `auth`, of each request',
    "(the last argument of every method). A request option given as `undefined` counts as not given: the client's own",
    'applies. Times are in milliseconds. How to use them is in [the client](../guide/client.md).',
    '',
    ...sections(CLIENT),
  ].join('\n');
}
