/**
 * One delivery attempt on the wire: a POST with `node:http` or `node:https` that connects through the
 * given `lookup` (so the address connected to is one the lookup checked), within a timeout, following no
 * redirect and reading no response body.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** What a receiver answered: its status and `Retry-After` (its body is not read). */
export interface Received {
  readonly status: number;
  readonly retryAfter: string | null;
}

/**
 * POSTs `body` to `url` within `timeout` ms, connecting through `lookup` (the addresses it hands over are
 * the ones checked). Redirects are not followed; the response body is discarded unread.
 */
export function post(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeout: number,
  lookup: LookupFunction | undefined,
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
        },
        signal: AbortSignal.timeout(timeout),
        ...(lookup ? { lookup } : {}),
      },
      (response) => {
        const retryAfter = response.headers['retry-after'];
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: retryAfter ?? null,
        });
        response.destroy();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
