/**
 * @module Compares the credential schemes of two projections: bearer tokens (declared as `bearer` or as
 * `oauth2`, the same `Authorization: Bearer` on the wire), the API key header, and OAuth 2.0's flows, their
 * URLs and the declared scopes. Scopes an operation needs are compared per collection (`scope-added`).
 */
import { OAUTH_FLOWS, takesBearer, type ApiAt, type OAuth2IR, type OAuthFlowIR, type OAuthFlowKind, type SourceRef } from '../model/ir.ts';
import { atPath } from '../model/diagnostics.ts';
import type { FindingCollector, Touches } from './collector.ts';

/** Where a property of `defineApi({...})` is written (`auth.oauth2.scopes`). */
function apiLoc(api: ApiAt, ...path: string[]): SourceRef | undefined {
  return api.loc ? atPath(api.loc, path) : undefined;
}

const URLS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

function compareFlow(out: FindingCollector, after: ApiAt, b: OAuthFlowIR, a: OAuthFlowIR, touches: Touches): void {
  const location = `auth.oauth2.${a.kind}`;
  for (const url of URLS) {
    const [was, now] = [b[url], a[url]];
    if (was === now) continue;
    const change = { aspect: `${a.kind}.${url}`, before: was ?? null, after: now ?? null };
    const loc = apiLoc(after, 'auth', 'oauth2', 'flows', a.kind, ...(now === undefined ? [] : [url]));
    // A client that has the old URL written down (a generated client's default token URL) now fails.
    if (was !== undefined)
      out.add(
        'oauth2-url-changed',
        location,
        `the ${a.kind} flow's ${url} ${now === undefined ? `${was} was removed` : `changed from ${was} to ${now}`}`,
        touches,
        loc,
        change,
      );
    else out.add('oauth2-url-added', location, `the ${a.kind} flow has a ${url}: ${now}`, touches, loc, change);
  }
}

function compareOAuth2(out: FindingCollector, after: ApiAt, b: OAuth2IR | undefined, a: OAuth2IR | undefined, touches: Touches): void {
  const flowOf = (o: OAuth2IR | undefined, kind: OAuthFlowKind) => o?.flows.find((f) => f.kind === kind);
  for (const kind of Object.keys(OAUTH_FLOWS) as OAuthFlowKind[]) {
    const [fb, fa] = [flowOf(b, kind), flowOf(a, kind)];
    const change = { aspect: `oauth2.flows.${kind}`, before: fb !== undefined, after: fa !== undefined };
    if (fb && !fa)
      out.add(
        'oauth2-flow-removed',
        `auth.oauth2.${kind}`,
        `clients can no longer obtain tokens with the OAuth 2.0 ${kind} flow`,
        touches,
        apiLoc(after, 'auth', ...(a ? ['oauth2', 'flows'] : [])),
        change,
      );
    else if (!fb && fa)
      out.add(
        'oauth2-flow-added',
        `auth.oauth2.${kind}`,
        `clients can obtain tokens with the OAuth 2.0 ${kind} flow`,
        touches,
        apiLoc(after, 'auth', 'oauth2', 'flows', kind),
        change,
      );
    else if (fb && fa) compareFlow(out, after, fb, fa, touches);
  }
  const names = (o: OAuth2IR | undefined) => (o?.scopes ?? []).map((s) => s.name);
  const [sb, sa] = [names(b), names(a)];
  const removed = sb.filter((s) => !sa.includes(s));
  const declared = sa.filter((s) => !sb.includes(s));
  const quoted = (xs: readonly string[]) => xs.map((s) => `'${s}'`).join(', ');
  const change = { aspect: 'oauth2.scopes', before: [...sb].sort(), after: [...sa].sort() };
  const loc = apiLoc(after, 'auth', ...(a ? ['oauth2', 'scopes'] : []));
  if (removed.length)
    out.add(
      'oauth2-scope-removed',
      'auth.oauth2.scopes',
      `scope${removed.length === 1 ? '' : 's'} ${quoted(removed)} ${removed.length === 1 ? 'is' : 'are'} no longer declared: clients that request ${removed.length === 1 ? 'it' : 'them'} are refused`,
      touches,
      loc,
      change,
    );
  if (declared.length)
    out.add('oauth2-scope-declared', 'auth.oauth2.scopes', `scope${declared.length === 1 ? '' : 's'} ${quoted(declared)} declared`, touches, loc, change);
}

/** Compares the credential schemes; `guarded` are the routes that need a credential after the change. */
export function compareAuth(out: FindingCollector, before: ApiAt, after: ApiAt, guarded: Touches): void {
  const [bb, ba] = [takesBearer(before.auth), takesBearer(after.auth)];
  // `bearer` replaced by `oauth2` (or back) keeps the wire credential: only the flows and scopes differ.
  const bearerAt = (api: ApiAt) => (api.auth.oauth2 ? 'auth.oauth2' : 'auth.bearer');
  const bearer = { aspect: 'auth.bearer', before: bb, after: ba };
  if (bb && !ba)
    out.add('auth-scheme-removed', bearerAt(before), 'bearer tokens (Authorization: Bearer) are no longer accepted', guarded, apiLoc(after, 'auth'), bearer);
  if (!bb && ba)
    out.add(
      'auth-scheme-added',
      bearerAt(after),
      'bearer tokens (Authorization: Bearer) are accepted',
      guarded,
      apiLoc(after, 'auth', after.auth.oauth2 ? 'oauth2' : 'bearer'),
      bearer,
    );
  const [kb, ka] = [before.auth.apiKey, after.auth.apiKey];
  const apiKey = { aspect: 'auth.apiKey', before: kb?.header ?? null, after: ka?.header ?? null };
  if (kb && (!ka || ka.header !== kb.header))
    out.add(
      'auth-scheme-removed',
      'auth.apiKey',
      `API keys in the ${kb.header} header are no longer accepted${ka ? ` (now ${ka.header})` : ''}`,
      guarded,
      apiLoc(after, 'auth', 'apiKey'),
      apiKey,
    );
  if (ka && (!kb || ka.header !== kb.header))
    out.add('auth-scheme-added', 'auth.apiKey', `API keys are accepted in the ${ka.header} header`, guarded, apiLoc(after, 'auth', 'apiKey'), apiKey);
  compareOAuth2(out, after, before.auth.oauth2, after.auth.oauth2, guarded);
}
