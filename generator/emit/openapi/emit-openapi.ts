/**
 * @module The OpenAPI emitter: `openapi/vN.json`, one OpenAPI 3.1 document per version. A JSON document
 * is built as an object and printed as prettier would print it (no template: JSON has no layout worth
 * overriding, and an object cannot produce a syntax error).
 */
import type { ApiAt, ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { outputFile } from '../file.ts';
import { renderer, type OutputFile } from '../types.ts';
import { buildOpenApiDocument, openApiParts } from './build-document.ts';
import { printJson } from './print-json.ts';

/** A version's document, assembled from each collection's part (see `openApiParts`). */
const DOCUMENT = renderer('openapi', (at: ApiAt, use) => printJson(buildOpenApiDocument(at, openApiParts(at, use))));

/** Emits `openapi/vN.json` for every version, from the version's projection. */
export function emitOpenApi(api: ApiIR): OutputFile[] {
  return api.versions.map((v) => outputFile(`openapi/${v.name}.json`, DOCUMENT, project(api, v.name), undefined, { language: 'json', preformatted: true }));
}
