/**
 * Diff rules and the lock for OAuth 2.0: a flow removed (breaking) or added (safe), a token or authorization
 * URL changed (breaking), a refresh URL added (safe), a declared scope removed (breaking) or added (safe),
 * a scope added to an operation (`scope-added`, breaking), and `bearer` replaced by `oauth2` (the same
 * wire credential: only the flows are new). The lock keeps flows and scope names, and judges them.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { OAuth2Def } from '../../generator/dsl/defs.ts';
import { compareWithLock } from '../../generator/lock/compare-lock.ts';
import { contractOf } from '../../generator/lock/contract.ts';
import { parseLock, serializeLock } from '../../generator/lock/lock-file.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { diffEdit, irOf, summary } from '../diff/helpers.ts';

const TOKEN = 'https://id.example.com/oauth/token';
const AUTHORIZE = 'https://id.example.com/oauth/authorize';
const BASE: OAuth2Def = {
  flows: { authorizationCode: { authorizationUrl: AUTHORIZE, tokenUrl: TOKEN }, clientCredentials: { tokenUrl: TOKEN } },
  scopes: { 'items:read': 'Read items', 'items:write': 'Write items' },
};

/** An API with one collection guarded by OAuth 2.0 (or plain bearer tokens when `oauth2` is false). */
function api(oauth2: OAuth2Def | false, scopes: { read?: string | string[]; write?: string | string[] } = { read: 'items:read', write: 'items:write' }): ApiIR {
  return irOf(
    defineApi({
      name: 'test',
      versions: { v1: { released: '2026-01-01' } },
      auth: oauth2 ? { oauth2 } : { bearer: {} },
      collections: { items: collection({ fields: { id: f.id(), name: f.string() }, scopes }) },
    }),
  );
}

describe('OAuth 2.0 diff rules', () => {
  it('a flow removed is breaking, a flow added safe', () => {
    const fewer = api({ ...BASE, flows: { authorizationCode: BASE.flows.authorizationCode! } });
    const removed = diffEdit(api(BASE), fewer);
    expect(summary(removed)).toEqual([{ id: 'oauth2-flow-removed', level: 'breaking', location: 'auth.oauth2.clientCredentials' }]);
    expect(removed[0]!.message).toBe('clients can no longer obtain tokens with the OAuth 2.0 clientCredentials flow');
    expect(removed[0]!.affects.routes).toContain('POST /v1/items');
    expect(summary(diffEdit(fewer, api(BASE)))).toEqual([{ id: 'oauth2-flow-added', level: 'safe', location: 'auth.oauth2.clientCredentials' }]);
  });

  it('a token or authorization URL changed is breaking; a refresh URL added is safe', () => {
    const moved = api({ ...BASE, flows: { ...BASE.flows, clientCredentials: { tokenUrl: 'https://login.example.com/token' } } });
    const found = diffEdit(api(BASE), moved);
    expect(summary(found)).toEqual([{ id: 'oauth2-url-changed', level: 'breaking', location: 'auth.oauth2.clientCredentials' }]);
    expect(found[0]!.message).toBe(`the clientCredentials flow's tokenUrl changed from ${TOKEN} to https://login.example.com/token`);
    const authorize = api({ ...BASE, flows: { ...BASE.flows, authorizationCode: { authorizationUrl: 'https://id.example.com/login', tokenUrl: TOKEN } } });
    expect(summary(diffEdit(api(BASE), authorize))).toEqual([{ id: 'oauth2-url-changed', level: 'breaking', location: 'auth.oauth2.authorizationCode' }]);
    const refresh = api({ ...BASE, flows: { ...BASE.flows, clientCredentials: { tokenUrl: TOKEN, refreshUrl: 'https://id.example.com/refresh' } } });
    expect(summary(diffEdit(api(BASE), refresh))).toEqual([{ id: 'oauth2-url-added', level: 'safe', location: 'auth.oauth2.clientCredentials' }]);
    expect(summary(diffEdit(refresh, api(BASE)))).toEqual([{ id: 'oauth2-url-changed', level: 'breaking', location: 'auth.oauth2.clientCredentials' }]);
  });

  it('a declared scope removed is breaking, a scope declared safe, a scope added to an operation breaking', () => {
    const more = api({ ...BASE, scopes: { ...BASE.scopes, 'items:admin': 'Administer items' } });
    expect(summary(diffEdit(api(BASE), more))).toEqual([{ id: 'oauth2-scope-declared', level: 'safe', location: 'auth.oauth2.scopes' }]);
    const removed = diffEdit(more, api(BASE));
    expect(summary(removed)).toEqual([{ id: 'oauth2-scope-removed', level: 'breaking', location: 'auth.oauth2.scopes' }]);
    expect(removed[0]!.message).toBe("scope 'items:admin' is no longer declared: clients that request it are refused");
    const needsAdmin = api(
      { ...BASE, scopes: { ...BASE.scopes, 'items:admin': 'Administer items' } },
      { read: 'items:read', write: ['items:write', 'items:admin'] },
    );
    expect(summary(diffEdit(more, needsAdmin))).toEqual([{ id: 'scope-added', level: 'breaking', location: 'items' }]);
  });

  it('bearer replaced by oauth2 keeps the credential: the flows and scopes are added, nothing removed', () => {
    const found = diffEdit(api(false), api(BASE));
    expect(summary(found)).toEqual([
      { id: 'oauth2-flow-added', level: 'safe', location: 'auth.oauth2.authorizationCode' },
      { id: 'oauth2-flow-added', level: 'safe', location: 'auth.oauth2.clientCredentials' },
      { id: 'oauth2-scope-declared', level: 'safe', location: 'auth.oauth2.scopes' },
    ]);
    // Back to plain bearer: clients lose the flows and scopes they obtain tokens with.
    expect(summary(diffEdit(api(BASE), api(false))).map((s) => s.id)).toEqual(['oauth2-flow-removed', 'oauth2-flow-removed', 'oauth2-scope-removed']);
  });
});

describe('the lock and OAuth 2.0', () => {
  const lockOf = (ir: ApiIR) => parseLock(serializeLock(compareWithLock(ir, undefined).nextLock));

  it('records flows with their URLs and the declared scope names, not their descriptions', () => {
    expect(contractOf(api(BASE), 'v1').auth).toEqual({
      oauth2: {
        flows: { authorizationCode: { authorizationUrl: AUTHORIZE, tokenUrl: TOKEN }, clientCredentials: { tokenUrl: TOKEN } },
        scopes: ['items:read', 'items:write'],
      },
    });
    const described = api({ ...BASE, scopes: { 'items:read': 'Read all items', 'items:write': 'Write items' } });
    const parsed = lockOf(api(BASE));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(compareWithLock(described, parsed.lock).changed).toBe(false);
  });

  it('refuses a token URL changed in a released version (RG180) and accepts a new flow, updating the lock', () => {
    const parsed = lockOf(api(BASE));
    if (!parsed.ok) throw new Error(parsed.message);
    const moved = api({ ...BASE, flows: { ...BASE.flows, clientCredentials: { tokenUrl: 'https://login.example.com/token' } } });
    const refused = compareWithLock(moved, parsed.lock);
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['RG180']);
    expect(refused.diagnostics[0]!.message).toContain('oauth2-url-changed, breaking');
    const withPassword = api({ ...BASE, flows: { ...BASE.flows, password: { tokenUrl: TOKEN } } });
    const accepted = compareWithLock(withPassword, parsed.lock);
    expect(accepted.diagnostics).toEqual([]);
    expect(accepted.changed).toBe(true);
    expect(accepted.nextLock.versions['v1']!.auth.oauth2!.flows.password).toEqual({ tokenUrl: TOKEN });
  });

  it('reads a lock written before OAuth 2.0 existed: bearer becoming oauth2 is safe', () => {
    const parsed = lockOf(api(false));
    if (!parsed.ok) throw new Error(parsed.message);
    const result = compareWithLock(api(BASE), parsed.lock);
    expect(result.diagnostics).toEqual([]);
    expect(result.findings.map((x) => x.id)).toEqual(['oauth2-flow-added', 'oauth2-flow-added', 'oauth2-scope-declared']);
  });
});
