/**
 * The fetch the JWKS is downloaded with: the body is read up to a byte cap and no further (a declared
 * `Content-Length` over the cap is refused before reading), and a key set with more keys than allowed is
 * refused, each with a {@link JwksRefused} the verifier reports as keys that cannot be had (503, logged).
 * Nothing of a refused body is kept. No jose here: `jwt.ts` downloads the key set with it (`remoteKeys`).
 */

/** A JWKS response refused for its size or its number of keys. */
export class JwksRefused extends Error {
  override readonly name = 'JwksRefused';
}

/** The caps of one JWKS download. */
export interface JwksCaps {
  readonly maxBytes: number;
  readonly maxKeys: number;
}

/** The body of `response` as text, or a {@link JwksRefused} once more than `max` bytes came. */
async function cappedText(response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw new JwksRefused(`the JWKS is ${declared} bytes, more than jwksMaxBytes (${max})`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new JwksRefused(`the JWKS is more than jwksMaxBytes (${max}) bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** How many keys a JWKS text holds (0 when it is no JSON object with a `keys` array: jose says why). */
function keyCount(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    const keys = typeof parsed === 'object' && parsed !== null ? (parsed as { keys?: unknown }).keys : undefined;
    return Array.isArray(keys) ? keys.length : 0;
  } catch {
    return 0;
  }
}

/** A fetch of a JWKS that holds it to `caps`. */
export function createCappedFetch(caps: JwksCaps): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, init);
    // jose reports any other status itself.
    if (response.status !== 200) return response;
    const text = await cappedText(response, caps.maxBytes);
    const keys = keyCount(text);
    if (keys > caps.maxKeys) throw new JwksRefused(`the JWKS holds ${keys} keys, more than jwksMaxKeys (${caps.maxKeys})`);
    return new Response(text, {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}
