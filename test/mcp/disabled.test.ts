/**
 * `defineApi({ mcp: false })` generates nothing new: the same files as with an MCP server but `mcp/`, no MCP tool in
 * the diff report (whose `affects.mcp` names each breaking change's tools otherwise), and no request to install the
 * MCP SDK. A value other than a boolean is a diagnostic.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingPeers } from '../../generator/config/peers.ts';
import { diffVersions } from '../../generator/diff/diff-history.ts';
import { PART_NAMES } from '../../generator/emit/parts.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { projectWithRestgen } from '../cli/run-cli.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { listFiles, tempDir } from '../helpers/temp-api.ts';

const API = (mcp: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },${mcp}
  collections: {
    notes: collection({
      fields: { id: f.id(), body: f.string().max(500).renamedFrom('text', 'v2') },
      scopes: { read: 'notes:read', write: 'notes:write' },
    }),
  },
});
`;

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

/** Generates `source` in a project of its own, whose package.json lists what the server imports. */
async function generated(prefix: string, source: string) {
  const tmp = tempDir(prefix);
  cleanups.push(tmp.cleanup);
  const manifest = {
    name: prefix,
    type: 'module',
    dependencies: { zod: '^4.0.0', '@restgen/runtime': '^0.2.0', fastify: '^5.1.0', '@fastify/rate-limit': '^11.0.0', jose: '^6.0.1' },
  };
  projectWithRestgen(tmp.dir, { 'api.ts': source, 'package.json': JSON.stringify(manifest) });
  const apiPath = path.join(tmp.dir, 'api.ts');
  const result = await generate({ apiPath });
  const dir = path.join(tmp.dir, 'generated');
  return { dir, apiPath, result, asked: missingPeers(dir, PART_NAMES).map((d) => d.message.split(' ')[4]) };
}

describe('mcp: false', () => {
  it('generates every file an MCP server would not need, and nothing of one', async () => {
    const on = await generated('mcp-on', API(''));
    const off = await generated('mcp-off', API('\n  mcp: false,'));
    expect(off.result.ok).toBe(true);
    const [withMcp, without] = [listFiles(on.dir), listFiles(off.dir)];
    expect(without.filter((f) => f.startsWith('mcp/'))).toEqual([]);
    expect(withMcp.filter((f) => !f.startsWith('mcp/'))).toEqual(without);
    // The same files but the report, which names MCP tools only when there are some.
    const differ = without.filter((f) => readFileSync(path.join(on.dir, f), 'utf8') !== readFileSync(path.join(off.dir, f), 'utf8'));
    expect(differ).toEqual(['CHANGES.md']);
    expect(readFileSync(path.join(on.dir, 'CHANGES.md'), 'utf8')).toContain('MCP tools: `notes_list`');
    expect(readFileSync(path.join(off.dir, 'CHANGES.md'), 'utf8')).not.toMatch(/MCP/);
    // The SDK and ajv are asked for only by an API that has an MCP server.
    expect(on.asked).toEqual(['@modelcontextprotocol/sdk', 'ajv']);
    expect(off.asked).toEqual([]);
  });

  it("leaves the diff's affected MCP tools empty, which name each change's tools otherwise", async () => {
    const on = await generated('diff-on', API(''));
    const off = await generated('diff-off', API('\n  mcp: false,'));
    const renamed = async (apiPath: string) => diffVersions(await loadIr(apiPath), 'v1', 'v2').findings.find((f) => f.id === 'field-renamed')!;
    expect((await renamed(on.apiPath)).affects.mcp).toEqual(['notes_list', 'notes_get', 'notes_create', 'notes_replace', 'notes_update']);
    expect((await renamed(off.apiPath)).affects).toMatchObject({
      mcp: [],
      client: ['v2.notes.list', 'v2.notes.get', 'v2.notes.create', 'v2.notes.replace', 'v2.notes.update'],
    });
  });

  it('must be a boolean', async () => {
    const tmp = tempDir('mcp-kind');
    cleanups.push(tmp.cleanup);
    projectWithRestgen(tmp.dir, { 'api.ts': API("\n  mcp: 'no',") });
    const result = await generate({ apiPath: path.join(tmp.dir, 'api.ts') });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([['RG175', expect.stringContaining('mcp')]]);
  });
});
