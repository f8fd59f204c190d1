/**
 * End to end over HTTP on the header-versioning example: one set of paths, the version chosen by the
 * `Api-Version` header (missing or unknown: 400 naming the valid ones), per-version routes (404, 405),
 * migrations between the two versions, deprecation headers, and an API without auth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_API, generateInto, importServer, registerOf, start, type Running } from './helpers.ts';

let server: Running;
const OLD = { 'api-version': '2025-01' };
const NEW = { 'api-version': '2025-06' };

beforeAll(async () => {
  const mod = await importServer(await generateInto('header', HEADER_API));
  // No auth and no migration hooks in this API: the options may be left out.
  server = await start((app) => registerOf(mod, 'Notes')(app, mod.createMemoryHandlers()));
});
afterAll(() => server.close());

describe('header versioning', () => {
  it('400 naming the valid versions when the header is missing or unknown', async () => {
    for (const headers of [{}, { 'api-version': 'v1' }] as Record<string, string>[]) {
      const answer = await server.call('GET', '/notes', { token: null, headers });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'unknown_version', versions: ['2025-01', '2025-06'] });
      expect(answer.body['detail']).toContain('Api-Version');
      expect(answer.body['detail']).toContain('2025-01, 2025-06');
    }
  });

  it('each version reads and writes its own shape on the same path', async () => {
    const created = await server.call('POST', '/notes', { token: null, headers: OLD, body: { heading: 'Old style' } });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.headers.get('location')).toBe(`/notes/${id}`);
    expect(created.body).toEqual({ id, heading: 'Old style', body: '', pinned: false, updatedAt: created.body['updatedAt'] });
    expect(created.headers.get('vary')).toContain('Api-Version');
    expect(created.headers.get('deprecation')).toBe(`@${Date.UTC(2025, 5, 1) / 1000}`);

    const read = await server.call('GET', `/notes/${id}`, { token: null, headers: NEW });
    expect(read.body).toEqual({ id, title: 'Old style', body: '', pinned: false, tags: [], updatedAt: created.body['updatedAt'] });
    expect(read.headers.get('deprecation')).toBeNull();

    const fresh = await server.call('POST', '/notes', { token: null, headers: NEW, body: { title: 'New', tags: ['a'] } });
    const old = await server.call('GET', `/notes/${fresh.body['id'] as string}`, { token: null, headers: OLD });
    expect(old.body).toMatchObject({ heading: 'New' });
    expect(old.body).not.toHaveProperty('tags');
  });

  it("operations and collections exist per version: 405 with that version's Allow, 404 for a later collection", async () => {
    const created = await server.call('POST', '/notes', { token: null, headers: NEW, body: { title: 'R' } });
    const id = created.body['id'] as string;
    expect((await server.call('PUT', `/notes/${id}`, { token: null, headers: NEW, body: { title: 'R2' } })).status).toBe(200);
    const old = await server.call('PUT', `/notes/${id}`, { token: null, headers: OLD, body: { heading: 'R2' } });
    expect(old.status).toBe(405);
    expect(old.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect((await server.call('GET', '/labels', { token: null, headers: NEW })).status).toBe(200);
    const missing = await server.call('GET', '/labels', { token: null, headers: OLD });
    expect(missing.status).toBe(404);
    expect(missing.body['detail']).toContain('2025-01');
    expect((await server.call('GET', '/nothing', { token: null, headers: NEW })).status).toBe(404);
  });
});

describe('pagination and filters of the in-memory handlers', () => {
  it('walks every page with the cursor; default and maximum limits apply', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await server.call('POST', '/labels', { token: null, headers: NEW, body: { name: `label-${i}` } });
      ids.push(c.body['id'] as string);
    }
    const first = await server.call('GET', '/labels', { token: null, headers: NEW });
    expect(first.body.data).toHaveLength(2);
    expect(typeof first.body['next_cursor']).toBe('string');
    const capped = await server.call('GET', '/labels?limit=50', { token: null, headers: NEW });
    expect(capped.status).toBe(200);
    expect(capped.body.data).toHaveLength(3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<Running['call']>> = await server.call('GET', `/labels?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        token: null,
        headers: NEW,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.data!.map((l) => l['id'] as string));
      cursor = page.body['next_cursor'] as string | null;
    } while (cursor !== null);
    expect(seen).toEqual(ids);
  });

  it('a bad cursor answers 400', async () => {
    for (const cursor of ['nope', Buffer.from('s1x').toString('base64url'), '']) {
      const answer = await server.call('GET', `/labels?cursor=${cursor}`, { token: null, headers: NEW });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('filters on filterable fields, coerced from the query string', async () => {
    await server.call('POST', '/notes', { token: null, headers: NEW, body: { title: 'Pinned', pinned: true } });
    const pinned = await server.call('GET', '/notes?pinned=true&limit=3', { token: null, headers: OLD });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data!.map((n) => n['heading'])).toEqual(['Pinned']);
    const unpinned = await server.call('GET', '/notes?pinned=false&limit=3', { token: null, headers: NEW });
    expect(unpinned.body.data!.every((n) => n['pinned'] === false)).toBe(true);
    expect(unpinned.body.data!.length).toBeGreaterThan(0);
    expect((await server.call('GET', '/notes?pinned=maybe', { token: null, headers: NEW })).status).toBe(400);
  });
});

describe('Vary', () => {
  it('adds the version header to the Vary the application set (CORS varies on Origin), never replaces it', async () => {
    const mod = await importServer(await generateInto('header', HEADER_API));
    const cors = await start(async (app) => {
      // What CORS code does for an allow-list of origins: the answer depends on Origin, so it says so.
      app.addHook('onRequest', async (request, reply) => {
        reply.header('access-control-allow-origin', request.headers.origin ?? '*').header('vary', 'Origin');
      });
      await registerOf(mod, 'Notes')(app, mod.createMemoryHandlers());
    });
    try {
      const answer = await cors.call('GET', '/notes', { token: null, headers: { ...NEW, origin: 'https://a.example' } });
      expect(answer.status).toBe(200);
      const vary = (answer.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
      expect(vary.sort()).toEqual(['api-version', 'origin']);
      // A problem answer varies on both too.
      const missing = await cors.call('GET', '/notes', { token: null, headers: { origin: 'https://a.example' } });
      expect(missing.status).toBe(400);
      expect(
        (missing.headers.get('vary') ?? '')
          .split(',')
          .map((v) => v.trim().toLowerCase())
          .sort(),
      ).toEqual(['api-version', 'origin']);
    } finally {
      await cors.close();
    }
  });
});
