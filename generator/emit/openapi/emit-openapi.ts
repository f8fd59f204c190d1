/**
 * @module The OpenAPI emitter: `openapi/vN.json`, one OpenAPI 3.1 document per version. A JSON document
 * is built as an object and printed as prettier would print it (no template: JSON has no layout worth
 * overriding, and an object cannot produce a syntax error).
 */
import type { ApiIR } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { projectionHash } from '../ir-hash.ts';
import { outputFile } from '../keyed-file.ts';
import type { OutputFile } from '../types.ts';
import { buildOpenApiDocument, openApiParts } from './build-document.ts';
import { printJson } from './print-json.ts';

/** Emits `openapi/vN.json` for every version, keyed by the version's projection. */
export function emitOpenApi(api: ApiIR): OutputFile[] {
  return api.versions.map((v) => {
    const at = project(api, v.name);
    // Assembled from each collection's part (see `openApiParts`).
    const spec = {
      path: `openapi/${v.name}.json`,
      language: 'json',
      kind: 'openapi',
      input: projectionHash(at),
      parts: openApiParts(at),
      preformatted: true,
    } as const;
    return outputFile(spec, (parts) => printJson(buildOpenApiDocument(at, parts)));
  });
}
