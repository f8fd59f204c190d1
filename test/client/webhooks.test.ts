/**
 * The generated client's `verifyWebhook` against messages signed by the `standardwebhooks` package (an
 * implementation nobody here wrote): valid ones answer the event, a wrong secret or changed body is a
 * WebhookSignatureError, an old or future timestamp a WebhookTimestampError, missing headers a
 * WebhookHeaderError; several signatures and several secrets are accepted. It runs on WebCrypto only.
 */
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateInto } from '../server/helpers.ts';

interface ClientModule {
  verifyWebhook(
    body: string | Uint8Array,
    headers: object,
    secret: string | readonly string[],
    options?: { tolerance?: number; now?: () => number },
  ): Promise<unknown>;
  WebhookVerificationError: new (...a: never[]) => Error;
  WebhookSignatureError: new (...a: never[]) => Error;
  WebhookTimestampError: new (...a: never[]) => Error;
  WebhookHeaderError: new (...a: never[]) => Error;
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_' + Buffer.from('another secret of enough length!').toString('base64');
const EVENT = { type: 'order.created', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 'x', qty: 2 } };
const BODY = JSON.stringify(EVENT);

let client: ClientModule;
beforeAll(async () => {
  client = (await import(path.join(await generateInto('webhook-client'), 'client/index.ts'))) as ClientModule;
});

function signed(secret: string, at = new Date(), id = 'msg_1'): Record<string, string> {
  const sig = new Webhook(secret).sign(id, at, BODY);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': sig };
}

describe('verifyWebhook', () => {
  it('answers the event of a message the standardwebhooks package signed (plain headers and Headers)', async () => {
    expect(await client.verifyWebhook(BODY, signed(SECRET), SECRET)).toEqual(EVENT);
    expect(await client.verifyWebhook(new TextEncoder().encode(BODY), new Headers(signed(SECRET)), SECRET)).toEqual(EVENT);
  });

  it('refuses a wrong secret and a changed body with WebhookSignatureError', async () => {
    await expect(client.verifyWebhook(BODY, signed(OTHER), SECRET)).rejects.toBeInstanceOf(client.WebhookSignatureError);
    await expect(client.verifyWebhook(BODY.replace('2', '3'), signed(SECRET), SECRET)).rejects.toBeInstanceOf(client.WebhookSignatureError);
    await expect(client.verifyWebhook(BODY, signed(SECRET), SECRET)).resolves.toBeTruthy();
  });

  it('refuses a timestamp outside the tolerance with WebhookTimestampError (default five minutes)', async () => {
    const old = signed(SECRET, new Date(Date.now() - 6 * 60_000));
    const error = await client.verifyWebhook(BODY, old, SECRET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.WebhookTimestampError);
    expect(error).toBeInstanceOf(client.WebhookVerificationError);
    expect(await client.verifyWebhook(BODY, old, SECRET, { tolerance: 10 * 60_000 })).toEqual(EVENT);
    await expect(client.verifyWebhook(BODY, signed(SECRET, new Date(Date.now() + 6 * 60_000)), SECRET)).rejects.toBeInstanceOf(client.WebhookTimestampError);
  });

  it('accepts the matching signature when two webhook-signature headers were joined into one (Node joins them with ", ")', async () => {
    const a = signed(SECRET);
    const b = signed(OTHER);
    const joined = { ...a, 'webhook-signature': `${a['webhook-signature']}, ${b['webhook-signature']}` };
    expect(await client.verifyWebhook(BODY, joined, SECRET)).toEqual(EVENT);
  });

  it('verifies the bytes as sent: a body that starts with a byte order mark is accepted when its bytes are signed', async () => {
    const withBom = `\uFEFF${BODY}`;
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_b',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign('msg_b', at, withBom),
    };
    expect(await client.verifyWebhook(new TextEncoder().encode(withBom), headers, SECRET)).toEqual(EVENT);
    // The same bytes without the mark are another body.
    await expect(client.verifyWebhook(new TextEncoder().encode(BODY), headers, SECRET)).rejects.toBeInstanceOf(client.WebhookSignatureError);
  });

  it('accepts one matching signature among several, and several secrets', async () => {
    const a = signed(SECRET);
    const b = signed(OTHER);
    const both = { ...a, 'webhook-signature': `${b['webhook-signature']} ${a['webhook-signature']}` };
    expect(await client.verifyWebhook(BODY, both, SECRET)).toEqual(EVENT);
    expect(await client.verifyWebhook(BODY, b, [SECRET, OTHER])).toEqual(EVENT);
  });

  it('refuses missing or malformed headers with WebhookHeaderError', async () => {
    const { ['webhook-id']: _, ...noId } = signed(SECRET);
    await expect(client.verifyWebhook(BODY, noId, SECRET)).rejects.toBeInstanceOf(client.WebhookHeaderError);
    await expect(client.verifyWebhook(BODY, { ...signed(SECRET), 'webhook-timestamp': 'soon' }, SECRET)).rejects.toBeInstanceOf(client.WebhookHeaderError);
  });
});
