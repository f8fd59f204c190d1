/**
 * @module The OpenAPI emitter: `openapi/vN.json`, one OpenAPI 3.1 document per version. A JSON document
 * is built as an object and printed as prettier would print it (no template: JSON has no layout worth
 * overriding, and an object cannot produce a syntax error).
 */
import type { ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { buildOpenApiDocument } from './build-document.ts';
import { printJson } from './print-json.ts';

/** Emits `openapi/vN.json` for every version. */
export function emitOpenApi(api: ApiIR, _options: EmitOptions): OutputFile[] {
  return api.versions.map((v) => ({
    path: `openapi/${v.name}.json`,
    content: printJson(buildOpenApiDocument(project(api, v.name))),
    language: 'json' as const,
    preformatted: true,
  }));
}
