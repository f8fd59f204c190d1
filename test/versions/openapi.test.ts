/**
 * The ledger example's OpenAPI documents declare how its versions are operated: every response of a
 * deprecated version with a docs page carries Deprecation, Sunset and Link; a version with brownouts answers
 * 410 with Retry-After; every response names the version in `Ledger-Version`; the default version's document
 * does not require the header. The documents validate (OpenAPI 3.1 schema) and lint clean (Redocly).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExample, type GeneratedExample, type OpenApiDoc } from '../openapi/generate-openapi.ts';
import { LEDGER_API } from './ledger.ts';

const REDOCLY = new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

let example: GeneratedExample;
beforeAll(async () => {
  example = await generateExample('versions-openapi', LEDGER_API);
});
afterAll(() => example?.cleanup());

type Response = { $ref?: string; headers?: Record<string, unknown> };

/** Every response of every operation of `doc`, references resolved. */
function responses(doc: OpenApiDoc): [string, Response][] {
  const components = (doc.components['responses'] ?? {}) as Record<string, Response>;
  const out: [string, Response][] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(item).filter(([key]) => key !== 'parameters'))
      for (const [status, r] of Object.entries((operation as { responses: Record<string, Response> }).responses)) {
        const resolved = r.$ref ? components[r.$ref.split('/').pop()!]! : r;
        out.push([`${method.toUpperCase()} ${path} ${status}`, resolved]);
      }
  return out;
}

describe('the documents of a header-versioned API with date versions', () => {
  it('validate against the OpenAPI 3.1 schema and lint clean', async () => {
    for (const v of example.versions) {
      const result = await new Validator().validate(example.docPath(v));
      expect(result.errors, v).toBeUndefined();
      const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--format=json', example.docPath(v)], { cwd: ROOT });
      const report = JSON.parse(stdout) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
      // OPTIONS (answered before credentials, limits and version resolution) and the document's own route answer no
      // 4xx the documents could honestly list (see test/openapi/document.test.ts).
      const honest = (p: { ruleId: string; location: { pointer: string }[] }) =>
        p.ruleId === 'operation-4xx-response' && p.location.some((l) => /\/options\/responses$|openapi\.json\/(get|head)\/responses$/.test(l.pointer));
      expect(
        report.problems.filter((p) => !honest(p)).map((p) => `${p.ruleId}: ${p.message}`),
        v,
      ).toEqual([]);
    }
  });

  it('declare Deprecation, Sunset and Link on every response of the deprecated version, and the version header on all', () => {
    const old = example.doc('2025-01-15');
    // OPTIONS is answered before the version is resolved: `Allow` only (as the server does).
    const all = responses(old).filter(([where]) => !where.startsWith('OPTIONS '));
    expect(all.length).toBeGreaterThan(40);
    for (const [where, r] of all) {
      expect(Object.keys(r.headers ?? {}), where).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link', 'Ledger-Version']));
    }
    const headers = old.components['headers'] as Record<string, { description: string; schema: { enum?: string[] } }>;
    expect(headers['Link']!.description).toContain('rel="deprecation"');
    expect(headers['Version']!.schema.enum).toEqual(['2025-01-15']);
    expect(old['externalDocs']).toEqual({ description: 'How to move off 2025-01-15.', url: 'https://docs.example.com/upgrade/2025-01-15' });
    expect(String(old.info['description'])).toContain('browned out from 2026-06-01T10:00:00Z to 2026-06-01T11:00:00Z');
    for (const [where, r] of responses(example.doc('2025-09-01')).filter(([w]) => !w.startsWith('OPTIONS '))) {
      expect(Object.keys(r.headers ?? {}), where).not.toContain('Link');
      expect(Object.keys(r.headers ?? {}), where).toContain('Ledger-Version');
    }
  });

  it('declare the brownout 410 with Retry-After', () => {
    const old = example.doc('2025-01-15');
    const gone = responses(old).filter(([where]) => where.endsWith(' 410'));
    expect(gone.length).toBeGreaterThan(5);
    const brownout = (old.components['responses'] as Record<string, { description: string; headers: Record<string, unknown> }>)['Brownout']!;
    expect(brownout.description).toContain('version_brownout');
    expect(Object.keys(brownout.headers)).toContain('Retry-After');
    // The event stream's own 410 (stream_expired) is the only one of a version before its sunset.
    expect(
      responses(example.doc('2025-09-01'))
        .filter(([where]) => where.endsWith(' 410'))
        .map(([where]) => where),
    ).toEqual(['GET /events 410']);
  });

  it("require the version header except in the default version's document", () => {
    const param = (v: string) => (example.doc(v).components['parameters'] as Record<string, { required?: boolean; description: string }>)['ApiVersion']!;
    expect(param('2025-01-15').required).toBe(true);
    expect(param('2026-03-01').required).toBe(true);
    expect(param('2025-09-01').required).toBeUndefined();
    expect(param('2025-09-01').description).toContain('else in `2025-09-01` (this one)');
  });
});
