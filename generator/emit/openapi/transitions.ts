/**
 * @module The lifecycle of a collection in the OpenAPI document: one operation per transition at
 * `/vN/orders/{id}:cancel` (operationId `cancelOrder`), the transitions' input schemas, and the state
 * field's description (a table of the transitions) with the machine-readable `x-restgen-lifecycle`.
 */
import type { ApiAt, CollectionAt, LifecycleAt, TransitionAt } from '../../model/ir.ts';
import { singularize, withArticle } from '../../model/names.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { objectSchema, type FormatNames } from './field-schema.ts';
import { expandParameters } from './query-parameters.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';
import {
  ETAG,
  errorResponses,
  retiredKinds,
  hasNoAuth,
  humanName,
  isLimited,
  isRateLimited,
  jsonContent,
  pathPrefix,
  securityWith,
  sortKinds,
  successHeaders,
  type OperationContext,
} from './operations.ts';
import type { ErrorKind } from './shared-components.ts';
import { SECRET_ANSWERS, withSecretName } from '../../model/webhook-endpoints.ts';

/** The operationId of a transition: `cancelOrder`, `markShippedOrder`. */
export function transitionOperationId(c: CollectionAt, t: TransitionAt): string {
  return `${t.name}${c.typeName}`;
}

/** `markShipped` reads `Mark shipped`. */
function sentence(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}

function errorKinds(api: ApiAt, c: CollectionAt, t: TransitionAt): ErrorKind[] {
  const kinds: ErrorKind[] = [
    'BadRequest',
    'NotAcceptable',
    'NotFound',
    'InvalidTransition',
    'PreconditionFailed',
    'ContentTooLarge',
    'UnsupportedMediaType',
    'IdempotencyKeyReused',
  ];
  if (!hasNoAuth(api)) kinds.push('Unauthorized');
  // Expanding a ref the caller may not read answers 403 too.
  if (!hasNoAuth(api) && (t.scopes.length > 0 || c.query.expandable.length > 0)) kinds.push('Forbidden');
  kinds.push(...retiredKinds(api));
  if (c.requireIfMatch) kinds.push('PreconditionRequired');
  if (isLimited(api, c) || t.rateLimit) kinds.push('TooManyRequests');
  kinds.push('InternalServerError', 'ServiceUnavailable');
  return sortKinds(kinds);
}

function operationOf(ctx: OperationContext, c: CollectionAt, lc: LifecycleAt, t: TransitionAt): JsonObject {
  const { api } = ctx;
  const one = humanName(singularize(c.name));
  const a = withArticle(one);
  const required = t.input.some((f) => !f.optional && !f.default);
  const limit = t.rateLimit ? ` Its own rate limit: ${t.rateLimit.limit} requests per ${t.rateLimit.window} per credential, besides the collection's.` : '';
  const description = [
    `Moves ${a} from ${t.from.map((s) => `\`${s}\``).join(' or ')} to \`${t.to}\` (its \`${lc.field}\`); from any other state it answers 409 \`invalid_transition\`.`,
    t.description ?? '',
    required ? '' : 'The body may be empty.',
    'Sent with an `Idempotency-Key`, it runs once: a retry gets the same answer.' + limit,
  ]
    .filter(Boolean)
    .join(' ');
  // Its own limit counts on top of the API's and the collection's: its answers carry RateLimit headers too.
  const limited = isRateLimited(api, c) || t.rateLimit !== undefined;
  // rotateSecret answers the webhook endpoint with its new signing secret.
  const answer = t.name === SECRET_ANSWERS.transition ? (withSecretName(c) ?? c.typeName) : c.typeName;
  const headers = successHeaders(api, c, { ...ETAG, 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') }, limited);
  const ok = compact({ description: `The ${one}, now \`${t.to}\`.`, headers, content: jsonContent(answer, api) });
  return compact({
    operationId: transitionOperationId(c, t),
    summary: `${sentence(t.name)} ${a} (${t.from.join(', ')} → ${t.to})`,
    description,
    tags: [c.name],
    deprecated: api.version.deprecated ? true : undefined,
    parameters: [...expandParameters(c), ref('parameters', 'IdempotencyKey'), ref('parameters', c.requireIfMatch ? 'IfMatchRequired' : 'IfMatch')],
    requestBody: { required, content: jsonContent(inputTypeName(c, t.name), api) },
    responses: { '200': ok, ...errorResponses(ctx, c, errorKinds(api, c, t), limited) },
    security: securityWith(api, hasNoAuth(api) ? null : t.scopes),
  });
}

/** The path items of a collection's transitions, `/vN/<collection>/{id}:<name>`, each with one POST operation. */
export function buildTransitionPaths(ctx: OperationContext, c: CollectionAt): Record<string, JsonObject> {
  const lc = c.lifecycle;
  const out: Record<string, JsonObject> = {};
  if (!lc) return out;
  const shared = ctx.api.versioning.in === 'header' ? [ref('parameters', 'ApiVersion')] : [];
  for (const t of lc.transitions)
    out[`${pathPrefix(ctx.api)}/${c.path}/{id}:${t.name}`] = { parameters: [...shared, ref('parameters', 'Id')], post: operationOf(ctx, c, lc, t) };
  return out;
}

/**
 * Adds a collection's lifecycle to its component schemas: each transition's input schema
 * (`OrderCancelInput`), and the state field of the resource schema.
 */
export function addLifecycleSchemas(api: ApiAt, c: CollectionAt, schemas: Record<string, JsonObject>, formats: FormatNames): void {
  const lc = c.lifecycle;
  if (!lc) return;
  for (const t of lc.transitions)
    schemas[inputTypeName(c, t.name)] = {
      ...objectSchema(t.input, 'request', formats),
      description: `The body of ${c.name}:${t.name}. Unknown fields are rejected.`,
    };
  const resource = schemas[c.typeName];
  const properties = resource?.['properties'] as Record<string, JsonObject> | undefined;
  const state = properties?.[lc.field];
  if (resource && properties && state) schemas[c.typeName] = { ...resource, properties: { ...properties, [lc.field]: withLifecycle(api, c, state) } };
}

/**
 * The state field's schema in a resource schema: its description gains a table of the version's
 * transitions, and `x-restgen-lifecycle` states the same for programs.
 */
function withLifecycle(api: ApiAt, c: CollectionAt, property: JsonObject): JsonObject {
  const lc = c.lifecycle!;
  const one = humanName(singularize(c.name));
  const route = `${pathPrefix(api)}/${c.path}/{id}`;
  const rows = lc.transitions.map((t) => `| \`${t.name}\` (\`POST ${route}:${t.name}\`) | ${t.from.map((s) => `\`${s}\``).join(', ')} | \`${t.to}\` |`);
  const table = rows.length > 0 ? ['', '', '| transition | from | to |', '| --- | --- | --- |', ...rows].join('\n') : '';
  const own = typeof property['description'] === 'string' ? `${property['description']} ` : '';
  const lifecycle: Json = {
    field: lc.field,
    initial: lc.initial,
    states: [...lc.states],
    transitions: lc.transitions.map((t) => ({ name: t.name, from: [...t.from], to: t.to, operationId: transitionOperationId(c, t) })),
  };
  return {
    ...property,
    description: `${own}The ${one}'s lifecycle state: a new ${one} starts as \`${lc.initial}\`, and only transitions change it.${table}`,
    'x-restgen-lifecycle': lifecycle,
  };
}
