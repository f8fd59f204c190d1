/**
 * The OAuth 2.0 diagnostics RG300-RG304: each mistake in a small API, reported at the exact line and column
 * of the property at fault, with nothing written; and `checkScopeDeclared`, the check other DSL places that
 * name scopes reuse.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, DiagnosticBag, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { checkScopeDeclared } from '../../generator/model/check-scopes.ts';
import { oauthUrlProblem } from '../../generator/model/build-auth.ts';
import { locateDiagnostics } from '../../generator/model/locate.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('oauth-diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly code: DiagnosticCode;
  /** The `auth` option. */
  readonly auth: string;
  /** The `scopes` of the collection. */
  readonly scopes?: string;
  /** The text the diagnostic points at: its first occurrence on the line marked `// <-`. */
  readonly at: string;
  readonly says: string;
}

const FLOWS = `flows: { clientCredentials: { tokenUrl: 'https://id.example.com/token' } }`;

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: {} },
  auth: {
${c.auth}
  },
  collections: {
    things: collection({
      fields: { id: f.id() },
${c.scopes ?? ''}
    }),
  },
});
`;

const cases: Case[] = [
  {
    code: 'RG300',
    auth: `    oauth2: {\n      flows: { clientCredentials: { tokenUrl: 'http://id.example.com/token' } }, // <-\n    },`,
    at: 'tokenUrl',
    says: "auth.oauth2.flows.clientCredentials.tokenUrl 'http://id.example.com/token' is not a URL tokens can come from: http is allowed only for localhost",
  },
  {
    code: 'RG300',
    auth: `    oauth2: {\n      flows: {\n        authorizationCode: { authorizationUrl: '/authorize', tokenUrl: 'https://id.example.com/token' }, // <-\n      },\n    },`,
    at: 'authorizationUrl',
    says: 'it is not an absolute URL',
  },
  {
    code: 'RG300',
    auth: `    oauth2: {\n      flows: { password: { tokenUrl: 'https://id.example.com/token', refreshUrl: 'ftp://id.example.com/r' } }, // <-\n    },`,
    at: 'refreshUrl',
    says: 'it must use https (got ftp)',
  },
  { code: 'RG301', auth: `    oauth2: {\n      flows: {}, // <-\n    },`, at: 'flows', says: 'auth.oauth2.flows is empty; declare how clients obtain tokens' },
  {
    code: 'RG302',
    auth: `    oauth2: {\n      ${FLOWS},\n      scopes: { 'orders read': 'Read orders' }, // <-\n    },`,
    at: "'orders read'",
    says: "'orders read' is not a valid OAuth 2.0 scope",
  },
  {
    code: 'RG303',
    auth: `    oauth2: { ${FLOWS}, scopes: { 'things:read': 'Read things', 'things:write': 'Write things' } },`,
    scopes: `      scopes: { read: 'things:read', write: 'things:wirte' }, // <-`,
    at: 'write',
    says: "things: scope 'things:wirte' is not declared in auth.oauth2.scopes (declared: things:read, things:write); did you mean 'things:write'?",
  },
  {
    code: 'RG304',
    auth: `    bearer: {}, // <-\n    oauth2: { ${FLOWS} },`,
    at: 'bearer',
    says: 'auth declares both bearer and oauth2, which are the same credential on the wire',
  },
];

describe('OAuth 2.0 diagnostics', () => {
  it('has a case for every code from RG300 to RG319 that exists', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG3[01]\d$/.test(c));
    // RG305 is a warning of generate (the files are written): its test runs the command line (test/cli/first-hour.test.ts).
    expect(codes.filter((c) => c !== 'RG305' && !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, name: `${c.code} #${i + 1}` })))('$name points at $at', async (c) => {
    const text = source(c);
    const dir = path.join(tmp.dir, c.name.replace(/\W+/g, '-'));
    writeFiles(dir, { 'api.ts': text });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(dir, 'generated'))).toBe(false);
    const located = await locateDiagnostics(result.diagnostics);
    expect(located.map((d) => d.code)).toEqual([c.code]);
    const [d] = located;
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('// <-')) + 1;
    expect(d!.loc?.line).toBe(line);
    expect(d!.column).toBe(lines[line - 1]!.indexOf(c.at) + 1);
    expect(d!.message).toContain(c.says);
  });

  it("RG303 for a transition's own scope that is not declared, at its scopes property", async () => {
    const text = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: {} },
  auth: { oauth2: { ${FLOWS}, scopes: { 'orders:read': 'Read', 'orders:write': 'Write', 'orders:cancel': 'Cancel' } } },
  collections: {
    orders: collection({
      fields: { id: f.id(), status: f.enum(['open', 'paid', 'cancelled']).readOnly() },
      scopes: { read: 'orders:read', write: 'orders:write' },
      lifecycle: {
        field: 'status',
        initial: 'open',
        transitions: {
          pay: { from: ['open'], to: 'paid' },
          cancel: { from: ['open', 'paid'], to: 'cancelled', scopes: 'orders:cancle' }, // <-
        },
      },
    }),
  },
});
`;
    const dir = path.join(tmp.dir, 'transition-scope');
    writeFiles(dir, { 'api.ts': text });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(dir, 'generated'))).toBe(false);
    const located = await locateDiagnostics(result.diagnostics);
    expect(located.map((d) => d.code)).toEqual(['RG303']);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('// <-')) + 1;
    expect(located[0]!.loc?.line).toBe(line);
    expect(located[0]!.column).toBe(lines[line - 1]!.indexOf('scopes') + 1);
    expect(located[0]!.message).toContain(
      "orders.cancel: scope 'orders:cancle' is not declared in auth.oauth2.scopes (declared: orders:read, orders:write, orders:cancel); did you mean 'orders:cancel'?",
    );
  });

  it("RG303 for the webhook endpoints' scopes: at webhooks.scopes when written, naming the option either way", async () => {
    const api = (webhooks: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: {} },
  auth: { oauth2: { ${FLOWS}, scopes: { 'orders:read': 'Read', 'orders:write': 'Write', 'hooks:read': 'Read hooks' } } },
  collections: {
    orders: collection({ fields: { id: f.id(), note: f.string() }, scopes: { read: 'orders:read', write: 'orders:write' }, events: ['created'] }),
  },
${webhooks}});
`;
    const run = async (name: string, text: string) => {
      const dir = path.join(tmp.dir, name);
      writeFiles(dir, { 'api.ts': text });
      const result = await generate({ apiPath: path.join(dir, 'api.ts') });
      expect(result.ok).toBe(false);
      return locateDiagnostics(result.diagnostics);
    };
    const defaults = await run('webhook-default-scopes', api(''));
    expect(defaults.map((d) => d.code)).toEqual(['RG303', 'RG303']);
    expect(defaults[0]!.message).toContain(
      "webhooks.scopes (the webhook endpoints; set them to declared scopes, or declare these): scope 'webhooks:read' is not declared",
    );
    const text = api("  webhooks: { scopes: { read: 'hooks:read', write: 'hooks:wrte' } }, // <-\n");
    const written = await run('webhook-written-scopes', text);
    expect(written.map((d) => d.code)).toEqual(['RG303']);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('// <-')) + 1;
    expect(written[0]!.loc?.line).toBe(line);
    expect(written[0]!.column).toBe(lines[line - 1]!.indexOf('write:') + 1);
    expect(written[0]!.message).toContain("scope 'hooks:wrte' is not declared in auth.oauth2.scopes (declared: orders:read, orders:write, hooks:read)");
  });

  it('accepts https URLs and http on loopback only', () => {
    expect(oauthUrlProblem('https://id.example.com/oauth/token')).toBeNull();
    expect(oauthUrlProblem('http://localhost:8080/token')).toBeNull();
    expect(oauthUrlProblem('http://127.0.0.1/token')).toBeNull();
    expect(oauthUrlProblem('http://[::1]:9000/token')).toBeNull();
    expect(oauthUrlProblem('http://localhost.evil.example/token')).toContain('http is allowed only');
    expect(oauthUrlProblem('https://user:pw@id.example.com/token')).toContain('user name or password');
    expect(oauthUrlProblem('https://id.example.com/token#x')).toContain('#fragment');
    expect(oauthUrlProblem(42)).toBe('it must be a string');
  });
});

describe('checkScopeDeclared', () => {
  it('reports an undeclared scope where the caller says, only when OAuth 2.0 is declared', async () => {
    const ir = await loadIr();
    const bag = new DiagnosticBag();
    const loc = { file: 'api.ts', line: 9, member: 'collection', path: ['lifecycle', 'cancel'] };
    checkScopeDeclared(ir, 'orders:write', 'orders.cancel', loc, bag);
    expect(bag.items).toEqual([]);
    checkScopeDeclared(ir, 'orders:refund', 'orders.cancel', loc, bag);
    expect(bag.items).toEqual([expect.objectContaining({ code: 'RG303', loc })]);
    expect(bag.items[0]!.message).toMatch(/^orders\.cancel: scope 'orders:refund' is not declared/);
    const withoutOAuth = new DiagnosticBag();
    checkScopeDeclared({ ...ir, auth: { bearer: {} } }, 'anything:goes', 'orders', loc, withoutOAuth);
    expect(withoutOAuth.items).toEqual([]);
  });
});
