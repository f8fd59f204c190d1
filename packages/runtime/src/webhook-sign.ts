/**
 * Standard Webhooks signing: secrets are `whsec_` + base64 of random bytes; a message is signed as
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the decoded secret. Several
 * signatures (a rotated secret in its grace period) are separated by spaces.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` + 32 random bytes in base64. */
export const createSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The `v1,<base64>` signature of one message with one secret. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated. */
export const signaturesOf = (secrets: readonly string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' ');
