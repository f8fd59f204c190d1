/**
 * @module `defineApi({ servers, openapi })`: where the API is served and how its OpenAPI documents are written.
 * A server is an absolute http(s) URL: OpenAPI tools and the generated client append version paths to it, so a
 * relative, templated (`{region}`) or credential-carrying one is refused where it is written (RG390), and so are an
 * empty list and a URL listed twice (RG391).
 */
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import type { OpenApiIR, ServerIR, SourceRef } from './ir.ts';

/** `servers` after its shape was checked (a list of objects with a `url`); the URLs themselves are unchecked. */
export type WrittenServers = readonly { readonly url?: unknown; readonly description?: string }[];

/** Why `value` is not a server URL, or null when it is one (then `normalized` is how documents write it). */
export function serverUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'it must be a string';
  if (/[{}]/.test(value)) return 'server variables ({name}) are not supported';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `it must use https or http (got ${url.protocol.slice(0, -1)})`;
  if (url.username || url.password) return 'it must not carry a user name or password';
  if (url.search || value.includes('?')) return 'it must not have a ?query';
  if (url.hash || value.includes('#')) return 'it must not have a #fragment';
  return null;
}

/** The server URL as documents and the client write it: version paths are appended, so no trailing slash. */
const normalized = (url: string): string => url.replace(/\/+$/, '');

/** The API's servers, reporting RG390 and RG391 into `d`; `ref` is the `defineApi` call. */
export function serversOf(written: WrittenServers | undefined, d: DiagnosticBag, ref: SourceRef): ServerIR[] {
  if (written === undefined) return [];
  if (written.length === 0) {
    d.error('RG391', "defineApi: servers is empty; name at least one ({ url: 'https://api.example.com' }), or leave servers out.", atPath(ref, ['servers']));
    return [];
  }
  const out: ServerIR[] = [];
  const seen = new Set<string>();
  written.forEach((server, i) => {
    const at = atPath(ref, ['servers', String(i), 'url']);
    const problem = serverUrlProblem(server.url);
    if (problem !== null) {
      d.error('RG390', `servers[${i}].url ${JSON.stringify(server.url)} is not a server clients can reach: ${problem}.`, at);
      return;
    }
    const url = normalized(server.url as string);
    if (seen.has(url)) {
      d.error('RG391', `servers[${i}].url '${url}' is listed twice; list each server once.`, at);
      return;
    }
    seen.add(url);
    out.push(server.description === undefined ? { url } : { url, description: server.description });
  });
  return out;
}

/** How the documents are written: the options as given, defaults filled in. */
export const openApiOf = (written: { readonly implicitMethods?: boolean } | undefined): OpenApiIR => ({
  implicitMethods: written?.implicitMethods ?? false,
});
