/**
 * @module The OpenAPI emitter: `openapi/vN.json`, one OpenAPI 3.1 document per version. A JSON document
 * is built as an object and printed as prettier would print it (no template: JSON has no layout worth
 * overriding, and an object cannot produce a syntax error).
 */
import type { ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { projectionHash } from '../ir-hash.ts';
import { keyedFile } from '../keyed-file.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { buildOpenApiDocument } from './build-document.ts';
import { printJson } from './print-json.ts';

/** Emits `openapi/vN.json` for every version, keyed by the version's projection. */
export function emitOpenApi(api: ApiIR, options: EmitOptions): OutputFile[] {
  return api.versions.map((v) => {
    const at = project(api, v.name);
    // Not memoised as a whole: each collection's part of the document is (see `buildOpenApiDocument`).
    const build = () => printJson(buildOpenApiDocument(at, options.memo));
    return keyedFile({ path: `openapi/${v.name}.json`, language: 'json', kind: 'openapi', input: projectionHash(at), preformatted: true }, build, undefined);
  });
}
