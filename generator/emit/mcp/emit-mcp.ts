/**
 * @module The MCP emitter: `mcp/index.ts` (`createMcpServer`), `mcp/stdio.ts` (the entry desktop hosts run),
 * `mcp/http.ts` (a Streamable HTTP mount for Fastify), `mcp/schemas.ts` (the schemas every tool shares),
 * `mcp/runtime/*.ts` (restgen's `runtime/mcp/`, copied verbatim), per version `mcp/tools/<version>.ts` and per
 * collection `mcp/tools/<version>/<collection>.ts` with that collection's tools. Nothing when the API says
 * `mcp: false`. The tools call the API through the generated client, which this part therefore needs.
 */
import type { ApiAt } from '../../model/ir.ts';
import { project } from '../../model/project.ts';
import { oneCollection, outputFile, templateFile } from '../file.ts';
import { formatNamesOf } from '../openapi/build-document.ts';
import type { FormatNames } from '../openapi/field-schema.ts';
import { runtimeFiles } from '../runtime-files.ts';
import { renderer, type Emitter, type OutputFile } from '../types.ts';
import { buildMcpSchemasView, buildMcpHttpView, buildMcpIndexView, buildMcpStdioView, buildMcpVersionView } from './mcp-view.ts';
import { buildToolsFile } from './tools-view.ts';

/** What a collection's tools are generated from: its version with only that collection, and the version's format names. */
interface ToolsData {
  readonly api: ApiAt;
  readonly formats: FormatNames;
}

/** A collection's tools, from its part of the version's OpenAPI document (see `tools-view.ts`). */
const TOOLS = renderer('mcp tools', ({ api, formats }: ToolsData, use) => use.template('mcp/tools', buildToolsFile(api, api.collections[0]!, formats)));

/** Emits the MCP server into `mcp/`; a collection's tools file reads that collection alone of its version. */
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
    const formats = formatNamesOf(at);
    for (const c of at.collections) files.push(outputFile(`mcp/tools/${v.name}/${c.name}.ts`, TOOLS, { api: oneCollection(at, c), formats }, options.render));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};
