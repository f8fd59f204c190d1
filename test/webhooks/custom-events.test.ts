/**
 * Custom events end to end: a handler calls `ctx.emit` and endpoints pinned to v1 and v2 receive the
 * payload in their version's shape (a renamed field under its old name, a field added later left out, a
 * removed one filled with its fallback); emit refuses an unknown type and data that does not fit. The
 * generated client's `WebhookEvent` union and `verifyWebhook` work on what arrives.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const API = new URL('./fixtures/events-api.ts', import.meta.url).pathname;

let mod: ServerModule;
let server: Running;
let receiver: Receiver;
let outDir = '';
const emitted: unknown[] = [];

beforeAll(async () => {
  outDir = await generateInto('custom-events', API);
  mod = await importServer(outDir);
  receiver = await startReceiver();
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, (...a: never[]) => unknown>>;
  const create = handlers['notes']!['create']!;
  handlers['notes']!['create'] = (async (body: { text: string }, ctx: { emit(type: string, data: object): Promise<void> }) => {
    const note = (await create(body as never, ctx as never)) as { id: string };
    if (body.text === 'flag') await ctx.emit('note.flagged', { noteId: note.id, level: 4, reason: 'spam' });
    if (body.text === 'unknown') await ctx.emit('note.unknown', {}).catch((e: unknown) => emitted.push(e));
    if (body.text === 'bad') await ctx.emit('note.flagged', { noteId: note.id, level: 9 }).catch((e: unknown) => emitted.push(e));
    return note;
  }) as never;
  server = await start((app) => registerOf(mod, 'Board')(app, handlers, { webhooks: { allowPrivateUrls: true, pollInterval: 20 } }));
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('custom events', () => {
  it('reach v1 and v2 endpoints in their own shapes, and verify with the generated client', async () => {
    const v1 = await server.call('POST', '/v1/webhook_endpoints', { body: { url: `${receiver.url}/v1`, events: ['note.flagged'] } });
    const v2 = await server.call('POST', '/v2/webhook_endpoints', { body: { url: `${receiver.url}/v2`, events: ['note.flagged', 'note.created'] } });
    expect([v1.status, v2.status]).toEqual([201, 201]);
    const note = await server.call('POST', '/v2/notes', { body: { text: 'flag' } });
    const [atV1] = await receiver.waitFor('/v1', 1);
    const atV2 = await receiver.waitFor('/v2', 2);
    expect(JSON.parse(atV1!.body)).toMatchObject({ type: 'note.flagged', data: { noteId: note.body['id'], score: 4, legacy: 'none' } });
    expect(JSON.parse(atV1!.body).data).not.toHaveProperty('reason');
    const flagged = atV2.map((r) => JSON.parse(r.body) as { type: string; data: object }).find((e) => e.type === 'note.flagged');
    expect(flagged!.data).toEqual({ noteId: note.body['id'], level: 4, reason: 'spam' });
    const client = (await import(path.join(outDir, 'client/index.ts'))) as { verifyWebhook(b: string, h: object, s: string): Promise<{ type: string }> };
    expect((await client.verifyWebhook(atV1!.body, atV1!.headers, v1.body['secret'] as string)).type).toBe('note.flagged');
  });

  it('refuses an unknown type and data that does not fit the newest payload', async () => {
    await server.call('POST', '/v2/notes', { body: { text: 'unknown' } });
    await server.call('POST', '/v2/notes', { body: { text: 'bad' } });
    expect(emitted).toHaveLength(2);
    expect(String(emitted[0])).toContain('no custom event has this type');
    expect(String(emitted[1])).toContain('level');
  });
});
