/**
 * Verifying webhooks (Standard Webhooks): the signature is `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<body>` with the secret after `whsec_`; the header may carry several
 * (space-separated, during a secret rotation) and one valid one is enough. Uses WebCrypto
 * (`crypto.subtle`), so it runs in Node 20+, browsers, Deno and Bun; signatures are compared in constant
 * time. Pass the raw body exactly as received: a re-serialized body does not verify.
 */

/** Why a webhook was refused. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}
/** The `webhook-id`, `webhook-timestamp` or `webhook-signature` header is missing or malformed. */
export class WebhookHeaderError extends WebhookVerificationError {
  override name = "WebhookHeaderError";
}
/** No signature matches: a wrong secret, or a body that is not the one signed. */
export class WebhookSignatureError extends WebhookVerificationError {
  override name = "WebhookSignatureError";
}
/** The timestamp is further from now than the tolerance (a replay, or a wrong clock). */
export class WebhookTimestampError extends WebhookVerificationError {
  override name = "WebhookTimestampError";
  constructor(
    message: string,
    /** The message's timestamp, in seconds since the epoch. */
    readonly timestamp: number,
  ) {
    super(message);
  }
}

/** Options of {@link verifyWebhook}. */
export interface VerifyOptions {
  /** How far the timestamp may be from now, in ms (default 300 000: five minutes). */
  readonly tolerance?: number;
  /** The clock, in ms (tests inject one). */
  readonly now?: () => number;
}

/** Headers as `fetch` gives them, or as a plain object (Node's `IncomingHttpHeaders`). */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

const headerOf = (headers: WebhookHeaders, name: string): string | null => {
  if (typeof (headers as { get?: unknown }).get === "function")
    return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Readonly<
    Record<string, string | readonly string[] | undefined>
  >;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string"
    ? value
    : Array.isArray(value)
      ? value.join(" ")
      : null;
};

// Return types are inferred: TypeScript 5.7+ then sees a Uint8Array over an ArrayBuffer, which WebCrypto takes.
const fromBase64 = (text: string) => {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
};

/** Equal bytes, in time that depends only on the length. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The bytes of `text` as WebCrypto takes them. */
const utf8 = (text: string) => new Uint8Array(new TextEncoder().encode(text));

/** The secret's key bytes (after `whsec_`). */
function keyOf(secret: string) {
  try {
    return fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError("The secret is not base64 (whsec_...).");
  }
}

async function macOf(
  secret: string,
  content: ReturnType<typeof utf8>,
): Promise<Uint8Array> {
  const raw = keyOf(secret);
  const key = await crypto.subtle.importKey(
    "raw",
    raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, content));
}

/**
 * Verifies a webhook and answers its event: `verifyWebhook<V1.WebhookEvent>(body, headers, secret)` gives
 * the typed union of the version the endpoint is pinned to. `secret` may list several (rotation on the
 * receiving side). Throws a {@link WebhookVerificationError} subclass when it must be refused.
 */
export async function verifyWebhook<
  E = { type: string; timestamp: string; data: unknown },
>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<E> {
  const id = headerOf(headers, "webhook-id");
  const stamp = headerOf(headers, "webhook-timestamp");
  const signature = headerOf(headers, "webhook-signature");
  if (!id || !stamp || !signature)
    throw new WebhookHeaderError(
      "The webhook-id, webhook-timestamp and webhook-signature headers are required.",
    );
  if (!/^\d+$/.test(stamp))
    throw new WebhookHeaderError(
      "webhook-timestamp is not whole seconds since the epoch.",
    );
  const timestamp = Number(stamp);
  const now = (options.now ?? Date.now)();
  const tolerance = options.tolerance ?? 300_000;
  if (Math.abs(now - timestamp * 1000) > tolerance)
    throw new WebhookTimestampError(
      `The webhook's timestamp is more than ${tolerance} ms from now.`,
      timestamp,
    );
  // The signature covers the body's bytes as sent (decoding first would drop a byte order mark).
  const bytes = typeof body === "string" ? utf8(body) : body;
  const prefix = utf8(`${id}.${stamp}.`);
  const content = new Uint8Array(prefix.length + bytes.length);
  content.set(prefix);
  content.set(bytes, prefix.length);
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  // Space-separated; two headers joined into one (Node joins them with ", ") leave a comma after a signature.
  const offered = signature
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .flatMap((s) => {
      try {
        return [fromBase64(s.slice(3).replace(/,$/, ""))];
      } catch {
        // A malformed signature matches nothing; another one in the header may still match.
        return [];
      }
    });
  for (const s of typeof secret === "string" ? [secret] : secret) {
    const expected = await macOf(s, content);
    if (offered.some((o) => sameBytes(o, expected))) {
      try {
        return JSON.parse(text) as E;
      } catch {
        throw new WebhookVerificationError(
          "The body is signed but is not JSON.",
        );
      }
    }
  }
  throw new WebhookSignatureError("No signature matches the secret.");
}
