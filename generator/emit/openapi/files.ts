/**
 * @module The downloads of file fields in the OpenAPI documents: per file field `GET /vN/<collection>/{id}/<field>`,
 * with binary answers of its types, `Range` (206, 416), `If-None-Match` (304) and `If-Range`. (Their uploads,
 * multipart bodies, are in `file-schemas.ts`.)
 */
import type { ApiAt, CollectionAt, FieldAt } from '../../model/ir.ts';
import { pascalCase, singularize, withArticle } from '../../model/names.ts';
import { fileFieldsOf } from './file-schemas.ts';
import { compact, ref, type JsonObject } from './json.ts';
import {
  ETAG,
  errorResponses,
  humanName,
  isLimited,
  pathPrefix,
  retiredKinds,
  securityWith,
  sortKinds,
  successHeaders,
  type OperationContext,
} from './operations.ts';
import type { ErrorKind } from './shared-components.ts';

/** The errors a download can answer. */
function downloadErrors(api: ApiAt, c: CollectionAt): ErrorKind[] {
  const kinds: ErrorKind[] = ['NotFound', 'PreconditionFailed', 'RangeNotSatisfiable', ...retiredKinds(api)];
  if (api.versioning.in === 'header') kinds.push('BadRequest');
  if (api.auth.bearer || api.auth.apiKey || api.auth.oauth2) kinds.push('Unauthorized');
  if (!c.public.includes('get') && c.scopes.read.length > 0 && (api.auth.bearer || api.auth.apiKey || api.auth.oauth2)) kinds.push('Forbidden');
  if (isLimited(api, c)) kinds.push('TooManyRequests');
  kinds.push('InternalServerError', 'ServiceUnavailable');
  return sortKinds(kinds);
}

/** The headers of a download's answer besides the version's and the rate limit's. */
const FILE_HEADERS: Record<string, JsonObject> = {
  ...ETAG,
  'Content-Disposition': {
    description: '`attachment` with the file name: `filename*` (RFC 8187) exactly, `filename` in plain ASCII.',
    schema: { type: 'string' },
  },
  'Accept-Ranges': { description: '`bytes`: a `Range` of bytes is served.', schema: { type: 'string', enum: ['bytes'] } },
};

/** The path item of a file field's download. */
function downloadItem(ctx: OperationContext, c: CollectionAt, f: Extract<FieldAt['type'], { kind: 'file' }>, field: FieldAt): JsonObject {
  const { api } = ctx;
  const one = humanName(singularize(c.name));
  const binary = Object.fromEntries(f.types.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]));
  const range = {
    ...FILE_HEADERS,
    'Content-Range': { description: 'The range sent and the file size: `bytes <first>-<last>/<size>`.', schema: { type: 'string' } },
  };
  const publicGet = c.public.includes('get') || !(api.auth.bearer || api.auth.apiKey || api.auth.oauth2);
  const get = compact({
    operationId: `download${c.typeName}${pascalCase(field.name)}`,
    summary: `Download the ${humanName(field.name)} of ${withArticle(one)}`,
    description: `The file in \`${field.name}\` (${f.types.join(', ')}), streamed; 404 when the ${one} has none. A single \`Range\` of bytes answers 206 (honoured only when \`If-Range\`, if sent, is the file's ETag); several ranges answer the whole file.${field.description ? ` ${field.description}` : ''}`,
    tags: [c.name],
    deprecated: api.version.deprecated || field.deprecated ? true : undefined,
    parameters: [ref('parameters', 'Range'), ref('parameters', 'IfRange'), ref('parameters', 'IfMatch'), ref('parameters', 'IfNoneMatch')],
    responses: {
      '200': compact({ description: `The ${humanName(field.name)}.`, headers: successHeaders(api, c, FILE_HEADERS), content: binary }),
      '206': compact({ description: 'The range of bytes asked for.', headers: successHeaders(api, c, range), content: binary }),
      '304': { description: 'Not modified: the file still has the ETag sent in `If-None-Match`.', headers: successHeaders(api, c, ETAG)! },
      ...errorResponses(ctx, c, downloadErrors(api, c)),
    },
    security: securityWith(api, publicGet ? null : c.scopes.read),
  });
  const shared = api.versioning.in === 'header' ? [ref('parameters', 'ApiVersion')] : [];
  return { parameters: [...shared, ref('parameters', 'Id')], get };
}

/** The download path items of a collection's file fields, `/vN/<collection>/{id}/<field>`. */
export function buildDownloadPaths(ctx: OperationContext, c: CollectionAt): Record<string, JsonObject> {
  if (!c.operations.includes('get')) return {};
  const out: Record<string, JsonObject> = {};
  for (const field of fileFieldsOf(c))
    if (field.type.kind === 'file') out[`${pathPrefix(ctx.api)}/${c.path}/{id}/${field.name}`] = downloadItem(ctx, c, field.type, field);
  return out;
}
