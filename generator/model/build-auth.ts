/**
 * @module Stage "build" for `auth`: the credential schemes an API accepts, with their own rules (a valid
 * API-key header; OAuth 2.0 flows with absolute https URLs and well-formed scope names; `bearer` and
 * `oauth2` not both, since both mean `Authorization: Bearer`). Scopes that collections name are checked
 * against the declared ones in `check-scopes.ts`, once the whole API is built.
 */
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import { OAUTH_FLOWS, type AuthIR, type OAuth2IR, type OAuthFlowIR, type OAuthFlowKind, type OAuthUrlName, type SourceRef } from './ir.ts';

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), so no space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `auth` after its shape was checked; values its own rules check stay `unknown`. */
export interface CheckedAuth {
  readonly bearer?: { readonly description?: string };
  readonly apiKey?: { readonly header?: unknown; readonly description?: string };
  readonly oauth2?: {
    readonly flows?: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
    readonly scopes?: Readonly<Record<string, string>>;
    readonly description?: string;
  };
}

/**
 * Why `value` is not a URL an OAuth 2.0 flow may name, or null when it is one: absolute, https (http only
 * for localhost, 127.0.0.1 and [::1], for an identity provider on the developer's machine), without
 * credentials or a fragment.
 */
export function oauthUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'it must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not parseable as an absolute URL: relative, or not a URL at all.
    return 'it is not an absolute URL';
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return 'http is allowed only for localhost, 127.0.0.1 and [::1]; use https';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `it must use https (got ${url.protocol.slice(0, -1)})`;
  if (url.username || url.password) return 'it must not carry a user name or password';
  if (url.hash) return 'it must not have a #fragment';
  return null;
}

function buildOAuth2(def: NonNullable<CheckedAuth['oauth2']>, d: DiagnosticBag, ref: SourceRef): OAuth2IR {
  const at = (...path: string[]): SourceRef => atPath(ref, ['auth', 'oauth2', ...path]);
  const written = def.flows ?? {};
  const flows: OAuthFlowIR[] = [];
  for (const kind of Object.keys(OAUTH_FLOWS) as OAuthFlowKind[]) {
    const urls = written[kind];
    if (!urls) continue;
    const flow: { -readonly [K in keyof OAuthFlowIR]: OAuthFlowIR[K] } = { kind };
    for (const name of [...OAUTH_FLOWS[kind], 'refreshUrl'] as const satisfies readonly OAuthUrlName[]) {
      const value = urls[name];
      if (value === undefined) continue;
      const problem = oauthUrlProblem(value);
      if (problem === null) flow[name] = value as string;
      else d.error('RG300', `auth.oauth2.flows.${kind}.${name} '${String(value)}' is not a URL tokens can come from: ${problem}.`, at('flows', kind, name));
    }
    flows.push(flow);
  }
  if (def.flows !== undefined && Object.keys(def.flows).length === 0)
    d.error(
      'RG301',
      `auth.oauth2.flows is empty; declare how clients obtain tokens, e.g. clientCredentials: { tokenUrl: 'https://id.example.com/oauth/token' }.`,
      at('flows'),
    );
  const scopes = Object.entries(def.scopes ?? {}).map(([name, description]) => {
    if (!SCOPE_TOKEN.test(name))
      d.error(
        'RG302',
        `auth.oauth2.scopes: '${name}' is not a valid OAuth 2.0 scope; a scope is printable ASCII without spaces, '"' or '\\' (like orders:read).`,
        at('scopes', name),
      );
    return { name, description };
  });
  return { flows, scopes, ...(def.description !== undefined ? { description: def.description } : {}) };
}

/** Builds the API's {@link AuthIR}, reporting RG110 and RG300-RG304 into `d`; `ref` is the `defineApi` call. */
export function buildAuth(auth: CheckedAuth, d: DiagnosticBag, ref: SourceRef): AuthIR {
  const keyHeader = auth.apiKey?.header;
  if (auth.apiKey && (typeof keyHeader !== 'string' || !HEADER_NAME.test(keyHeader)))
    d.error(
      'RG110',
      `auth.apiKey.header '${String(keyHeader ?? '')}' is not a valid HTTP header name; for example 'X-API-Key'.`,
      atPath(ref, ['auth', 'apiKey']),
    );
  if (auth.bearer && auth.oauth2)
    d.error(
      'RG304',
      `auth declares both bearer and oauth2, which are the same credential on the wire (Authorization: Bearer); remove bearer: OAuth 2.0 access tokens are bearer tokens, and options.authenticate still receives them when the server verifies no JWTs itself.`,
      atPath(ref, ['auth', 'bearer']),
    );
  return {
    ...(auth.bearer && !auth.oauth2 ? { bearer: auth.bearer } : {}),
    ...(auth.apiKey ? { apiKey: { ...auth.apiKey, header: String(keyHeader) } } : {}),
    ...(auth.oauth2 ? { oauth2: buildOAuth2(auth.oauth2, d, ref) } : {}),
  };
}
