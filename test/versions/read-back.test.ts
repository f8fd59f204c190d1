/**
 * What clients of older versions read back after a change made with a fallback: the server stores the newest shape,
 * so a field removed with `removedIn(v, { fallback })` reads back as the fallback before `v` (what such a client sent
 * is not kept), and a field made required with `madeRequiredIn(v, { fallback })` reads back as the fallback before `v`
 * when a create left it out. Checked over HTTP against the generated server, and said in CHANGES.md and UPGRADING.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { importServer, registerOf, start, type Running } from '../server/helpers.ts';

const API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} },
  collections: {
    tickets: collection({
      fields: {
        id: f.id(),
        title: f.string().madeRequiredIn('v2', { fallback: 'untitled' }),
        note: f.string().removedIn('v2', { fallback: 'n/a' }),
        body: f.string().optional(),
      },
    }),
  },
});
`;

const tmp = tempDir('read-back');
let out = '';
let server: Running;

beforeAll(async () => {
  writeFiles(tmp.dir, { 'api.ts': API });
  out = path.join(tmp.dir, 'generated');
  const result = await generate({ apiPath: path.join(tmp.dir, 'api.ts'), outDir: out });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  const mod = await importServer(out);
  server = await start((app) => registerOf(mod, 'Desk')(app, mod.createMemoryHandlers(), {}));
});
afterAll(async () => {
  await server?.close();
  tmp.cleanup();
});

describe('what a v1 client reads back', () => {
  it('a field made required in v2 with a fallback: left out by a v1 create, it reads back as the fallback', async () => {
    const created = await server.call('POST', '/v1/tickets', { body: { note: 'mine' } });
    expect(created.status).toBe(201);
    const read = await server.call('GET', `/v1/tickets/${created.body['id'] as string}`);
    expect(read.body['title']).toBe('untitled');
  });

  it('a field removed in v2 with a fallback: what a v1 client sends is not kept, it reads back as the fallback', async () => {
    const created = await server.call('POST', '/v1/tickets', { body: { title: 'Printer', note: 'mine' } });
    expect(created.body['note']).toBe('n/a');
    expect((await server.call('GET', `/v1/tickets/${created.body['id'] as string}`)).body['note']).toBe('n/a');
  });
});

describe('CHANGES.md and UPGRADING.md say so beside each change', () => {
  const title = 'Clients of v1 that leave it out of a create or replace read it back as "untitled", its fallback, which is stored for them';
  const note = 'Clients of v1 read it back as "n/a", its fallback: the newest version does not store it, so a value they send is not kept';

  it('CHANGES.md, in the v1 → v2 section only', () => {
    const changes = readFileSync(path.join(out, 'CHANGES.md'), 'utf8');
    const [, v1v2, v2v3] = changes.split(/^## /m);
    expect(v1v2).toMatch(/^v1 → v2/);
    expect(v1v2).toContain(`tickets.title became required. ${title} (\`request-field-became-required\``);
    expect(v1v2).toContain(`tickets.note was removed (it was required in responses). ${note} (\`required-field-removed\``);
    expect(v2v3).not.toContain('its fallback');
  });

  it('UPGRADING.md, in the steps of the methods they touch', () => {
    const upgrading = readFileSync(path.join(out, 'UPGRADING.md'), 'utf8');
    const create = upgrading.slice(upgrading.indexOf('### `tickets.create`'), upgrading.indexOf('### `tickets.replace`'));
    expect(create).toContain(`${title}. Always send it now.`);
    expect(create).toContain(`${note}. Stop sending it`);
    const get = upgrading.slice(upgrading.indexOf('### `tickets.get`'), upgrading.indexOf('### `tickets.create`'));
    expect(get).toContain(note);
  });

  it('a changed fallback is said again (the reports are not taken from the cache of the old one)', async () => {
    const dir = path.join(tmp.dir, 'again');
    writeFiles(dir, { 'api.ts': API });
    const apiPath = path.join(dir, 'api.ts');
    expect((await generate({ apiPath })).ok).toBe(true);
    writeFiles(dir, { 'api.ts': API.replace("fallback: 'untitled'", "fallback: 'no title'") });
    expect((await generate({ apiPath })).ok).toBe(true);
    for (const file of ['CHANGES.md', 'UPGRADING.md']) {
      const text = readFileSync(path.join(dir, 'generated', file), 'utf8');
      expect(text).toContain('read it back as "no title"');
      expect(text).not.toContain('untitled');
    }
  });
});
