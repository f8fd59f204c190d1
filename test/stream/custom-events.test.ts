/**
 * The event stream of an API versioned by header (`GET /events` with `Api-Version`, the default version without
 * it) with a custom event: each reader gets the custom payload in its version's shape, and a custom event is read
 * with the scopes that manage webhook endpoints, a derived one with its collection's read scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { openStream } from './sse.ts';

const API = new URL('./fixtures/board-api.ts', import.meta.url).pathname;
const SCOPES: Record<string, string[]> = {
  admin: ['notes:read', 'notes:write', 'webhooks:read', 'webhooks:write'],
  reader: ['notes:read'],
};
let server: Running;

beforeAll(async () => {
  const mod = await importServer(await generateInto('stream-board', API));
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, (...a: never[]) => unknown>>;
  const create = handlers['notes']!['create']!;
  handlers['notes']!['create'] = (async (body: { text: string }, ctx: { emit(type: string, data: object): Promise<void> }) => {
    const note = (await create(body as never, ctx as never)) as { id: string };
    if (body.text === 'flag') await ctx.emit('note.flagged', { noteId: note.id, level: 4, reason: 'spam' });
    return note;
  }) as never;
  server = await start((app) =>
    registerOf(mod, 'Board')(app, handlers, { authenticate: ({ token }: { token: string }) => ({ id: token, scopes: SCOPES[token] ?? [] }) }),
  );
});
afterAll(() => server?.close());

describe('the event stream by header, with custom events', () => {
  it('streams each version its own shape of a custom event, the version chosen by the header', async () => {
    const v1 = await openStream(`${server.url}/events`);
    const v2 = await openStream(`${server.url}/events`, { headers: { 'api-version': 'v2' } });
    expect([v1.status, v2.status]).toEqual([200, 200]);
    expect(v2.headers.get('api-version')).toBe('v2');
    await server.call('POST', '/notes', { body: { text: 'flag' }, headers: { 'api-version': 'v2' } });
    // The custom event, emitted inside the handler, comes before the derived one, written after it answered.
    const [flagged1, created1] = await v1.waitFor(2);
    const [flagged2] = await v2.waitFor(2);
    expect([flagged1!.event, created1!.event]).toEqual(['note.flagged', 'note.created']);
    expect(flagged1!.data.data).toEqual({ noteId: created1!.data.data['id'], score: 4 });
    expect(flagged2!.data.data).toEqual({ noteId: created1!.data.data['id'], level: 4, reason: 'spam' });
    v1.drop();
    v2.drop();
    expect((await openStream(`${server.url}/events`, { headers: { 'api-version': 'v9' } })).status).toBe(400);
  });

  it('reads a custom event with the scopes that manage webhook endpoints', async () => {
    const reader = await openStream(`${server.url}/events`, { token: 'reader' });
    // notes:read reads note.created; the stream leaves note.flagged out for it.
    expect(reader.status).toBe(200);
    await server.call('POST', '/notes', { body: { text: 'flag' } });
    await server.call('POST', '/notes', { body: { text: 'plain' } });
    const got = await reader.waitFor(2);
    expect(got.map((e) => e.event)).toEqual(['note.created', 'note.created']);
    reader.drop();
    const asked = await openStream(`${server.url}/events?types=note.flagged`, { token: 'reader' });
    expect(asked.status).toBe(403);
    expect(asked.problem).toMatchObject({ code: 'insufficient_scope', scopes: ['webhooks:write'] });
    expect((await openStream(`${server.url}/events`, { token: 'nobody' })).status).toBe(403);
  });
});
