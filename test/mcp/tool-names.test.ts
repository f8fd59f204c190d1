/**
 * Tool names MCP hosts would refuse (longer than 64 characters) are a warning (RG400) at the builder that names them,
 * with what to do; generate still writes everything, and says nothing about an API without an MCP server.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineOf, tempDir } from '../helpers/temp-api.ts';
import { projectWithRestgen, runCli } from '../cli/run-cli.ts';

/** 57 characters: with `_replace` (8) it is one too many; with `_create` (7) it just fits. */
const LONG = 'reconciliation_statement_line_items_awaiting_review_queue';

const API = (mcp: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'books',
  versions: { v1: {} },${mcp}
  collections: {
    ${LONG}: collection({
      fields: { id: f.id(), state: f.enum(['open', 'done']).readOnly() },
      lifecycle: { field: 'state', initial: 'open', transitions: { markReconciledByTheAuditors: { from: ['open'], to: 'done' } } },
    }),
  },
});
`;

const tmp = tempDir('tool-names');
afterAll(tmp.cleanup);

describe('RG400', () => {
  it('warns of every tool name longer than 64 characters, where it is written', async () => {
    const dir = projectWithRestgen(path.join(tmp.dir, 'long'), { 'api.ts': API('') });
    const r = await runCli(dir, ['generate']);
    expect(r.code, r.err).toBe(0);
    const warnings = r.err.split('\n').filter((l) => l.includes('RG400'));
    // replace and the transition are over 64 characters; list, get, create, update and delete are not.
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`api.ts:${lineOf(API(''), `${LONG}: collection(`)}:`);
    expect(warnings[0]).toContain(`the MCP tool ${LONG}_replace has 65 characters, and MCP hosts take at most 64`);
    expect(warnings[1]).toContain(`api.ts:${lineOf(API(''), 'markReconciledByTheAuditors')}:`);
    expect(warnings[1]).toContain('give the collection or the transition a shorter name');
    expect(r.err).toContain('written');
  });

  it('says nothing for an API without an MCP server', async () => {
    const dir = projectWithRestgen(path.join(tmp.dir, 'off'), { 'api.ts': API('\n  mcp: false,') });
    const r = await runCli(dir, ['generate']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('RG400');
  });
});
