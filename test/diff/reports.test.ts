/**
 * What a reviewer and a CI system read (issue #12, item 6), through `restgen diff` in process: JSON reports
 * valid against the schema `--schema` prints (checked with ajv, 2020-12), builder locations with line and
 * column, before/after values and resolved commits; JUnit XML read back with a real XML parser; Markdown
 * with client methods and fingerprints; `--severity`; acceptance from the lock under `--base`; and the
 * usage errors of `--from`/`--to` and unknown git refs.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORT_SCHEMA } from '../../generator/report/format-json.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { removeTempProjects, runDiffCli, tempProject } from './helpers.ts';

const diff = runDiffCli;
afterAll(removeTempProjects);

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=restgen', '-c', 'user.email=restgen@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

const moduleWith = (quantity: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'shop',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },
  collections: {
    orders: collection({
      fields: { id: f.id(), quantity: ${quantity} },
      scopes: { read: 'orders:read', write: 'orders:write' },
    }),
  },
});
`;

/** A git repository with the module committed at `quantity`, then edited to `edited`. */
function repo(quantity: string, edited: string): string {
  const dir = tempProject();
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
  writeFileSync(path.join(dir, 'api.ts'), moduleWith(quantity));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'api');
  writeFileSync(path.join(dir, 'api.ts'), moduleWith(edited));
  return dir;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
const validateReport = ajv.compile(REPORT_SCHEMA);

describe('JSON and its schema', () => {
  it('--schema prints the JSON Schema; it compiles under ajv strict mode', async () => {
    const r = await diff(['--schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(REPORT_SCHEMA)));
    const fresh = new Ajv2020({ strict: true });
    expect(() => fresh.compile(JSON.parse(r.out) as object)).not.toThrow();
  });
  it('reports of the shop example (every pair, one pair, --severity) validate against it', async () => {
    const validate = validateReport;
    for (const args of [[], ['--from', 'v2', '--to', 'v3'], ['--severity', 'field-renamed=warning', '--severity', 'optional-field-added=off']]) {
      const r = await diff([SHOP_API, '--format', 'json', '--fail-on', 'breaking', ...args]);
      const data = JSON.parse(r.out) as unknown;
      expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    }
  });
  it('each finding carries its builder call as file:line:column, and what changed before and after', async () => {
    const r = await diff([SHOP_API, '--from', 'v1', '--to', 'v2', '--format', 'json']);
    const data = JSON.parse(r.out) as {
      findings: { id: string; location: string; source: { file: string; line: number; column: number }; changes: unknown[] }[];
    };
    const source = readFileSync(SHOP_API, 'utf8').split('\n');
    const renamed = data.findings.find((x) => x.id === 'field-renamed')!;
    expect(renamed.source.file).toBe('examples/shop/api.ts');
    expect(source[renamed.source.line - 1]!.slice(renamed.source.column - 1)).toMatch(/^renamedFrom\('qty', 'v2'\)/);
    expect(renamed.changes).toEqual([{ aspect: 'name', before: 'qty', after: 'quantity' }]);
    const removed = data.findings.find((x) => x.location === 'orders.note')!;
    expect(source[removed.source.line - 1]!.slice(removed.source.column - 1)).toMatch(/^removedIn\('v2'\)/);
  });
  it('--base names the ref and the commit it resolved to, and HEAD', async () => {
    const dir = repo('f.int().max(100)', 'f.int().max(50)');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir);
    const data = JSON.parse(r.out) as { git: unknown; findings: { source: { line: number; column: number } }[] };
    expect(data.git).toEqual({ base: { ref: 'HEAD', commit: head }, head: { commit: head, dirty: true } });
    expect(validateReport(data), JSON.stringify(validateReport.errors)).toBe(true);
    const line = moduleWith('f.int().max(50)').split('\n')[8]!;
    expect(data.findings[0]!.source).toEqual({ file: 'api.ts', line: 9, column: line.indexOf('max(50)') + 1 });
  });
});

describe('findings point at the exact builder call', () => {
  it('scopes, operations and removedIn: the property or marker, not the collection', async () => {
    const source = (write: string, ops: string, extra: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'shop',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },
  collections: {
    orders: collection({
      fields: { id: f.id(), quantity: f.int()${extra} },
      operations: [${ops}],
      scopes: { read: 'orders:read', write: ${write} },
    }),
  },
});
`;
    const dir = repo('f.int()', 'f.int()');
    writeFileSync(path.join(dir, 'api.ts'), source("'orders:write'", "'list', 'get', 'create', 'delete'", ''));
    git(dir, 'commit', '-qam', 'scopes');
    const edited = source("['orders:write', 'orders:admin']", "'list', 'get', 'create'", ", note: f.string().optional().removedIn('v2')");
    writeFileSync(path.join(dir, 'api.ts'), edited);
    const lines = edited.split('\n');
    const at = (line: number, text: string) => ({ file: 'api.ts', line, column: lines[line - 1]!.indexOf(text) + 1 });
    const r = await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir);
    const found = (JSON.parse(r.out) as { findings: { id: string; version: string; source: unknown }[] }).findings.filter((x) => x.version === 'v1');
    expect(found.find((x) => x.id === 'scope-added')!.source).toEqual(at(11, 'write:'));
    expect(found.find((x) => x.id === 'operation-removed')!.source).toEqual(at(10, 'operations:'));
    // Between versions of one module, a removal points at its removedIn marker.
    const v = await diff(['api.ts', '--from', 'v1', '--to', 'v2', '--format', 'github'], dir);
    expect(v.out).toContain(
      `::error file=api.ts,line=9,col=${lines[8]!.indexOf('removedIn') + 1},title=breaking request-optional-field-removed (orders.note)::`,
    );
  });
});

describe('JUnit XML', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) });
  type Case = { name: string; classname: string; file?: string; line?: string; failure?: { type: string }; skipped?: unknown; 'system-out'?: string };
  type Suite = { name: string; tests: string; failures: string; skipped: string; testcase: Case[] };
  it('is well-formed; a suite per version pair, a failure per finding that reaches --fail-on', async () => {
    const r = await diff([SHOP_API, '--format', 'junit', '--fail-on', 'breaking']);
    expect(r.code).toBe(1);
    expect(XMLValidator.validate(r.out)).toBe(true);
    const doc = parser.parse(r.out) as { testsuites: { tests: string; failures: string; testsuite: Suite[] } };
    const json = JSON.parse((await diff([SHOP_API, '--format', 'json', '--fail-on', 'breaking'])).out) as { summary: { failing: number }; findings: unknown[] };
    expect(doc.testsuites.testsuite.map((s) => s.name)).toEqual(['v1 → v2', 'v2 → v3']);
    expect(Number(doc.testsuites.tests)).toBe(json.findings.length);
    expect(Number(doc.testsuites.failures)).toBe(json.summary.failing);
    const renamed = doc.testsuites.testsuite[0]!.testcase.find((c) => c.name === 'field-renamed orders.quantity')!;
    expect(renamed).toMatchObject({ classname: 'restgen.diff.v2.orders', file: 'examples/shop/api.ts', failure: { type: 'breaking' } });
    const safe = doc.testsuites.testsuite[0]!.testcase.find((c) => c.name.startsWith('optional-field-added'))!;
    expect(safe.failure).toBeUndefined();
    expect(safe['system-out']).toContain('fingerprint: ');
  });
  it('breaks that can never fail (unreleased versions) are skipped, not failures', async () => {
    const dir = repo('f.int().max(100)', 'f.int().max(50)');
    const r = await diff(['api.ts', '--base', 'HEAD', '--format', 'junit'], dir);
    const doc = parser.parse(r.out) as { testsuites: { testsuite: Suite[] } };
    const [v1, v2] = doc.testsuites.testsuite;
    expect([v1!.failures, v1!.skipped, v2!.failures, v2!.skipped]).toEqual(['1', '0', '0', '1']);
    expect(v2!.testcase[0]!.skipped).toBeDefined();
  });
});

describe('Markdown', () => {
  it('lists client methods, MCP tools and fingerprints', async () => {
    const r = await diff([SHOP_API, '--from', 'v1', '--to', 'v2', '--format', 'md']);
    const json = JSON.parse((await diff([SHOP_API, '--from', 'v1', '--to', 'v2', '--format', 'json'])).out) as {
      findings: { id: string; fingerprint: string }[];
    };
    expect(r.out).toContain('| routes | client | MCP tools | fingerprint |');
    const renamed = r.out.split('\n').find((l) => l.includes('`field-renamed`'))!;
    expect(renamed).toContain('`v2.orders.create`');
    expect(renamed).toContain('`orders_create`');
    expect(renamed).toContain(`\`${json.findings.find((x) => x.id === 'field-renamed')!.fingerprint}\``);
  });
});

describe('--severity', () => {
  it('turns a rule down (or off) for the run; --fail-on then follows the new level', async () => {
    const dir = repo('f.int().max(100)', 'f.int().max(50)');
    expect((await diff(['api.ts', '--base', 'HEAD'], dir)).code).toBe(1);
    const lowered = await diff(['api.ts', '--base', 'HEAD', '--severity', 'bound-tightened=warning', '--format', 'json'], dir);
    expect(lowered.code).toBe(0);
    const tightened = (out: string) =>
      (JSON.parse(out) as { findings: { id: string; level: string; ruleLevel: string }[] }).findings.filter((x) => x.id === 'request-bound-tightened');
    expect(tightened(lowered.out)[0]).toMatchObject({ level: 'warning', ruleLevel: 'breaking' });
    const off = await diff(['api.ts', '--base', 'HEAD', '--severity', 'request-bound-tightened=off', '--format', 'json'], dir);
    expect(tightened(off.out)).toEqual([]);
    // The older-data warning is a rule of its own, turned off by its own id.
    const quiet = await diff(
      ['api.ts', '--base', 'HEAD', '--severity', 'request-bound-tightened=off', '--severity', 'existing-data-may-not-satisfy=off', '--format', 'json'],
      dir,
    );
    expect((JSON.parse(quiet.out) as { findings: unknown[] }).findings).toEqual([]);
  });
  it('an unknown id or level, or a malformed flag, is a usage error (2)', async () => {
    for (const flag of ['no-such-rule=safe', 'field-renamed=fatal', 'field-renamed']) {
      const r = await diff([SHOP_API, '--severity', flag]);
      expect(r.code, flag).toBe(2);
      expect(r.err).toMatch(/^restgen diff: .*--severity/);
    }
  });
});

describe('acceptance under --base', () => {
  it('a break recorded in the lock passes diff --base; a different break still fails', async () => {
    const dir = repo('f.int().max(100)', 'f.int().max(50)');
    const json = JSON.parse((await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir)).out) as {
      findings: { fingerprint: string; version: string; id: string; location: string; message: string; unreleased?: boolean }[];
    };
    const released = json.findings.filter((x) => !x.unreleased);
    // What `generate --accept-breaking` records (test/diff/gate.test.ts proves it records these fingerprints).
    const accepted = released.map((x) => ({
      fingerprint: x.fingerprint,
      version: x.version,
      id: x.id,
      location: x.location,
      message: x.message,
      reason: 'agreed with the one client',
    }));
    writeFileSync(path.join(dir, 'restgen.lock.json'), JSON.stringify({ lockfileVersion: 1, api: 'shop', versions: {}, accepted }));
    const r = await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { findings: { accepted?: { reason: string } }[] }).findings[0]!.accepted!.reason).toBe('agreed with the one client');
    expect((await diff(['api.ts', '--base', 'HEAD'], dir)).out).toContain('accepted: agreed with the one client');
    writeFileSync(path.join(dir, 'api.ts'), moduleWith('f.int().max(40)'));
    expect((await diff(['api.ts', '--base', 'HEAD'], dir)).code).toBe(1);
  });
});

describe('usage errors (issue #9 slips)', () => {
  it('--from newer than --to is one line, exit 2', async () => {
    const r = await diff([SHOP_API, '--from', 'v3', '--to', 'v1']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('restgen diff: --from v3 must be older than --to v1 (the versions are v1, v2, v3, oldest first)\n');
    expect((await diff([SHOP_API, '--from', 'v2', '--to', 'v2'])).code).toBe(2);
  });
  it('an unknown git ref is one line naming the ref, exit 2, without the git command line', async () => {
    const dir = repo('f.int().max(100)', 'f.int().max(100)');
    const r = await diff(['api.ts', '--base', 'no-such-branch'], dir);
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^restgen diff: unknown git ref 'no-such-branch'/);
    expect(r.err).not.toMatch(/rev-parse|Command failed|\^\{commit\}/);
  });
});
