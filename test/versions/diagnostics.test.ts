/**
 * The version operation diagnostics (RG380-RG386): each mistake alone in an API module, reported at the
 * exact property (line and column of `// <-`), nothing written; every code of the range has a case.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { loadModel } from '../../generator/pipeline/generate.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('version-diagnostics');
afterAll(tmp.cleanup);

/** An API module with these `versions` and `versioning` (as source text). */
const api = (versions: string, versioning = `{ in: 'header', header: 'Ledger-Version' }`): string =>
  `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: {
${versions}
  },
  versioning: ${versioning},
  collections: { things: collection({ fields: { id: f.id() } }) },
});
`;

const DEPRECATED = `'2025-01-15': { released: '2025-01-15', deprecated: '2026-01-01', sunset: '2027-06-01',`;

interface Case {
  readonly name: string;
  readonly code: DiagnosticCode;
  readonly text: string;
  /** Where on the `// <-` line the diagnostic must point. */
  readonly at: string;
  readonly says: string;
}

const cases: Case[] = [
  {
    name: 'a brownout before the deprecation',
    code: 'RG380',
    text: api(`    ${DEPRECATED}
      brownouts: [{ start: '2025-12-31T23:00:00Z', end: '2026-01-01T01:00:00Z' }] }, // <-
    '2025-09-01': { released: '2025-09-01' },`),
    at: `start: '2025-12-31`,
    says: 'before the version is deprecated (2026-01-01)',
  },
  {
    name: 'a brownout past the sunset',
    code: 'RG380',
    text: api(`    ${DEPRECATED}
      brownouts: [{ start: '2027-05-31T23:00:00Z', end: '2027-06-01T00:30:00Z' }] }, // <-
    '2025-09-01': { released: '2025-09-01' },`),
    at: `end: '2027-06-01`,
    says: 'after the sunset (2027-06-01)',
  },
  {
    name: 'a brownout of a version that is not deprecated',
    code: 'RG380',
    text: api(`    '2025-01-15': { released: '2025-01-15', brownouts: [
      { start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' }, // <-
    ] },`),
    at: `{ start:`,
    says: 'is not deprecated',
  },
  {
    name: 'a reversed window',
    code: 'RG381',
    text: api(`    ${DEPRECATED}
      brownouts: [{ start: '2026-06-01T11:00:00Z', end: '2026-06-01T10:00:00Z' }] }, // <-`),
    at: `{ start:`,
    says: 'swap start and end',
  },
  {
    name: 'an instant without an offset',
    code: 'RG381',
    text: api(`    ${DEPRECATED}
      brownouts: [{ start: '2026-06-01 10:00', end: '2026-06-01T11:00:00Z' }] }, // <-`),
    at: `start: '2026-06-01 10:00'`,
    says: 'is not an ISO 8601 instant with an offset',
  },
  {
    name: 'overlapping windows',
    code: 'RG382',
    text: api(`    ${DEPRECATED}
      brownouts: [
        { start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' },
        { start: '2026-06-01T10:30:00+00:00', end: '2026-06-01T12:00:00Z' }, // <-
      ] },`),
    at: `{ start: '2026-06-01T10:30`,
    says: 'overlaps brownouts[0]',
  },
  {
    name: 'a docs page over http',
    code: 'RG383',
    text: api(`    ${DEPRECATED}
      docs: 'http://docs.example.com/upgrade' }, // <-`),
    at: `docs:`,
    says: 'it must use https',
  },
  {
    name: 'a docs page that is no URL',
    code: 'RG383',
    text: api(`    '2025-01-15': { released: '2025-01-15', docs: '/upgrade/2025-01-15' }, // <-`),
    at: `docs:`,
    says: 'is not an absolute URL',
  },
  {
    name: 'a default naming no version',
    code: 'RG384',
    text: api(`    '2025-01-15': { released: '2025-01-15' },`, `{ in: 'header', header: 'Ledger-Version', default: '2025-02-01' as '2025-01-15' }, // <-`),
    at: `default:`,
    says: "neither 'latest' nor a version",
  },
  {
    name: 'a default naming an unreleased version',
    code: 'RG384',
    text: api(
      `    '2025-01-15': { released: '2025-01-15' },
    '2025-09-01': {},`,
      `{ in: 'header', header: 'Ledger-Version', default: '2025-09-01' }, // <-`,
    ),
    at: `default:`,
    says: '2025-09-01 is not released',
  },
  {
    name: "'latest' without a released version",
    code: 'RG384',
    text: api(`    '2025-01-15': {},`, `{ in: 'header', default: 'latest' }, // <-`),
    at: `default:`,
    says: 'no version is released yet',
  },
  {
    name: 'a default with path versioning',
    code: 'RG385',
    text: api(`    v1: { released: '2025-01-15' },`, `{ in: 'path', default: 'latest' } as { in: 'path' }, // <-`),
    at: `default:`,
    says: 'applies to header versioning only',
  },
  {
    name: 'date versions out of order',
    code: 'RG386',
    text: api(`    '2025-09-01': { released: '2025-01-15' },
    '2025-01-15': { released: '2025-09-01' }, // <-`),
    at: `'2025-01-15':`,
    says: 'declare them oldest first',
  },
];

describe('version operation diagnostics', () => {
  it('every code of RG380-RG389 has a case', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG38\d$/.test(c));
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases)('$code: $name', async (c) => {
    await expectOnlyDiagnostic(path.join(tmp.dir, c.name.replace(/\W+/g, '-')), c.text, { code: c.code, at: c.at, says: c.says });
  });

  it('takes a valid setup: brownouts in time order, docs normalized, latest as the newest released version', async () => {
    const dir = path.join(tmp.dir, 'valid');
    writeFiles(dir, {
      'api.ts': api(
        `    ${DEPRECATED}
      brownouts: [{ start: '2026-09-01T10:00:00Z', end: '2026-09-01T11:00:00Z' }, { start: '2026-06-01T12:00:00+02:00', end: '2026-06-01T11:00:00Z' }],
      docs: 'https://docs.example.com' },
    '2025-09-01': { released: '2025-09-01' },
    '2026-03-01': {},`,
        `{ in: 'header', header: 'Ledger-Version', default: 'latest' }`,
      ),
    });
    const model = await loadModel(path.join(dir, 'api.ts'));
    expect(model.diagnostics).toEqual([]);
    const [old] = model.ir!.versions;
    expect(old!.brownouts).toEqual([
      { start: '2026-06-01T12:00:00+02:00', end: '2026-06-01T11:00:00Z' },
      { start: '2026-09-01T10:00:00Z', end: '2026-09-01T11:00:00Z' },
    ]);
    expect(old!.docs).toBe('https://docs.example.com/');
    expect(model.ir!.versioning).toEqual({ in: 'header', header: 'Ledger-Version', default: '2025-09-01' });
  });
});
