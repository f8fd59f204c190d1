/**
 * @module The MCP emitter: `mcp/index.ts` (`createMcpServer`), `mcp/stdio.ts` (the entry desktop hosts run),
 * `mcp/http.ts` (a Streamable HTTP mount for Fastify), `mcp/schemas.ts` (the schemas every tool shares),
 * `mcp/runtime/*.ts` (restgen's `runtime/mcp/`, copied verbatim), per version `mcp/tools/<version>.ts` and per
 * collection `mcp/tools/<version>/<collection>.ts` with that collection's tools. Nothing when the API says
 * `mcp: false`. The tools call the API through the generated client, which this part therefore needs.
 */
import { project } from '../../model/project.ts';
import { outputFile, templateFile } from '../keyed-file.ts';
import { collectionInputs } from '../openapi/build-document.ts';
import { runtimeFiles } from '../runtime-files.ts';
import type { Emitter, OutputFile } from '../types.ts';
import { buildMcpSchemasView, buildMcpHttpView, buildMcpIndexView, buildMcpStdioView, buildMcpVersionView } from './mcp-view.ts';
import { buildToolsFile } from './tools-view.ts';

/**
 * Emits the MCP server into `mcp/`. A collection's tools file is keyed by what its part of the version's OpenAPI
 * document reads (its schemas come from there), so a change to one collection renders one file per version.
 */
export const emitMcp: Emitter = (api, options) => {
  if (api.mcp === false) return [];
  const files: OutputFile[] = [
    templateFile('mcp/index.ts', 'mcp/index', buildMcpIndexView(api), options.render),
    templateFile('mcp/stdio.ts', 'mcp/stdio', buildMcpStdioView(api), options.render),
    templateFile('mcp/http.ts', 'mcp/http', buildMcpHttpView(api), options.render),
    templateFile('mcp/schemas.ts', 'mcp/schemas', buildMcpSchemasView(), options.render),
    ...runtimeFiles(options.runtime, 'mcp/', 'mcp/runtime/'),
  ];
  for (const v of api.versions) {
    const at = project(api, v.name);
    files.push(templateFile(`mcp/tools/${v.name}.ts`, 'mcp/version', buildMcpVersionView(api, at), options.render));
    const inputs = collectionInputs(at);
    at.collections.forEach((c, i) => {
      const spec = { path: `mcp/tools/${v.name}/${c.name}.ts`, language: 'typescript', kind: 'mcp tools', input: inputs[i]! } as const;
      files.push(outputFile(spec, () => options.render('mcp/tools', buildToolsFile(at, c))));
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
