/**
 * Every mistake with file fields and formats is a diagnostic at the exact builder call or property: one small
 * API per case, one mistake, the line marked `// <-`. Asserts the code, the exact line and column, a part of the
 * message, that it is the only diagnostic, and that nothing was written.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import type { DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir } from '../helpers/temp-api.ts';
import { apiWith } from '../diff/helpers.ts';

const tmp = tempDir('file-diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly name: string;
  readonly code: DiagnosticCode;
  /** More fields of orders. */
  readonly fields?: string;
  /** More options of orders. */
  readonly options?: string;
  /** Options of defineApi after collections. */
  readonly api?: string;
  readonly at: string;
  readonly says: string;
}

const PDF = "{ maxBytes: 1000, types: ['application/pdf'] }";

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'shop',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        status: f.enum(['open', 'paid']).readOnly(),
        ${c.fields ?? ''}
      },
      ${c.options ?? ''}
    }),
  },
  ${c.api ?? ''}
});
`;

const CASES: Case[] = [
  { name: 'no maxBytes', code: 'RG410', fields: "invoice: f.file({ types: ['application/pdf'] }), // <-", at: 'file(', says: 'needs maxBytes' },
  { name: 'maxBytes of 0', code: 'RG410', fields: "invoice: f.file({ maxBytes: 0, types: ['application/pdf'] }), // <-", at: 'file(', says: 'at least 1' },
  {
    name: 'a fraction of a byte',
    code: 'RG410',
    fields: "invoice: f.file({ maxBytes: 1.5, types: ['application/pdf'] }), // <-",
    at: 'file(',
    says: 'whole number',
  },
  { name: 'no types', code: 'RG410', fields: 'invoice: f.file({ maxBytes: 1000, types: [] }), // <-', at: 'file(', says: 'needs types' },
  { name: 'a wildcard type', code: 'RG410', fields: "invoice: f.file({ maxBytes: 1000, types: ['image/*'] }), // <-", at: 'file(', says: 'wildcard' },
  {
    name: 'a type with parameters',
    code: 'RG410',
    fields: "invoice: f.file({ maxBytes: 1000, types: ['text/plain; charset=utf-8'] }), // <-",
    at: 'file(',
    says: 'is not a media type',
  },
  { name: 'an upper-case type', code: 'RG410', fields: "invoice: f.file({ maxBytes: 1000, types: ['Image/PNG'] }), // <-", at: 'file(', says: 'lower case' },
  {
    name: 'a type listed twice',
    code: 'RG410',
    fields: "invoice: f.file({ maxBytes: 1000, types: ['image/png', 'image/png'] }), // <-",
    at: 'file(',
    says: "lists 'image/png' twice",
  },
  {
    name: 'a file in an object',
    code: 'RG411',
    fields: `box: f.object({ scan: f.file(${PDF}) }).optional(), // <-`,
    at: 'file(',
    says: 'cannot be in an object',
  },
  { name: 'a file in an array', code: 'RG411', fields: `scans: f.array(f.file(${PDF})).optional(), // <-`, at: 'file(', says: 'cannot be in an array' },
  {
    name: "a file in a transition's input",
    code: 'RG411',
    options: `lifecycle: { field: 'status', initial: 'open', transitions: { pay: { from: ['open'], to: 'paid', input: { receipt: f.file(${PDF}) } } } }, // <-`,
    at: 'file(',
    says: "cannot be in a transition's input",
  },
  {
    name: "a file in an event's payload",
    code: 'RG411',
    api: `events: { 'invoice.sent': { payload: { pdf: f.file(${PDF}) } } }, // <-`,
    at: 'file(',
    says: "cannot be in an event's payload",
  },
  {
    name: 'a file as the old shape of a type change',
    code: 'RG411',
    fields: `scan: f.string().optional().typeChangedFrom('v2', f.file(${PDF}).optional()), // <-`,
    at: 'file(',
    says: "cannot be in a type change's old shape",
  },
  { name: 'a unique file', code: 'RG412', fields: `invoice: f.file(${PDF}).unique(), // <-`, at: 'unique', says: '.unique() does not apply to f.file()' },
  {
    name: 'a filterable file',
    code: 'RG412',
    fields: `invoice: f.file(${PDF}).filterable(), // <-`,
    at: 'filterable',
    says: '.filterable() does not apply to f.file()',
  },
  { name: 'a read-only file', code: 'RG412', fields: `invoice: f.file(${PDF}).readOnly(), // <-`, at: 'readOnly', says: 'uploaded by clients' },
  { name: 'a write-only file', code: 'RG412', fields: `invoice: f.file(${PDF}).writeOnly(), // <-`, at: 'writeOnly', says: '.writeOnly() does not apply' },
  { name: 'a file with a default', code: 'RG412', fields: `invoice: f.file(${PDF}).default(null), // <-`, at: 'default', says: 'never filled in' },
  {
    name: 'a file that changed type',
    code: 'RG412',
    fields: `invoice: f.file(${PDF}).optional().typeChangedFrom('v2', f.string().optional()), // <-`,
    at: 'typeChangedFrom',
    says: 'never becomes another kind',
  },
  {
    name: 'a file made optional (older versions would need a file that does not exist)',
    code: 'RG412',
    fields: `invoice: f.file(${PDF}).optional().madeOptionalIn('v2'), // <-`,
    at: 'madeOptionalIn',
    says: 'cannot make up',
  },
  {
    name: 'a file in a collection without get',
    code: 'RG413',
    fields: `invoice: f.file(${PDF}).optional(), // <-`,
    options: "operations: ['list', 'create'],",
    at: 'file(',
    says: 'needs the get operation',
  },
  {
    name: 'a file removed without a fallback',
    code: 'RG154',
    fields: `invoice: f.file(${PDF}).removedIn('v2'), // <-`,
    at: 'removedIn',
    says: 'is required but removed in v2',
  },
  {
    name: 'a transition named download beside a file',
    code: 'RG325',
    fields: `invoice: f.file(${PDF}).optional(),`,
    options: "lifecycle: { field: 'status', initial: 'open', transitions: { download: { from: ['open'], to: 'paid' } } }, // <-",
    at: 'download:',
    says: "clashes with the client's download method",
  },
  { name: 'formats without json', code: 'RG414', api: "formats: ['xml'], // <-", at: 'formats', says: "'json' must be listed" },
  { name: 'an unknown format', code: 'RG414', api: "formats: ['json', 'yaml'], // <-", at: 'formats', says: 'the string "yaml" is not a format' },
  { name: 'a format twice', code: 'RG414', api: "formats: ['json', 'xml', 'xml'], // <-", at: 'formats', says: "'xml' is listed twice" },
];

describe('file and format diagnostics', () => {
  for (const [i, c] of CASES.entries())
    it(`${c.code}: ${c.name}`, async () => {
      await expectOnlyDiagnostic(path.join(tmp.dir, `case-${i}`), source(c), { code: c.code, at: c.at, says: c.says });
    });

  it('has a case for every code of RG410-RG419', async () => {
    const { DIAGNOSTIC_CODES } = await import('../../generator/model/diagnostics.ts');
    const tested = new Set(CASES.map((c) => c.code));
    const mine = Object.keys(DIAGNOSTIC_CODES).filter((code) => /^RG41\d$/.test(code));
    expect(mine.filter((code) => !tested.has(code as DiagnosticCode))).toEqual([]);
  });
});

describe('a file field in the IR', () => {
  it('keeps maxBytes and types, and is answered as metadata (an object on the wire)', () => {
    const api = apiWith({
      scan: f
        .file({ maxBytes: 5_000_000, types: ['image/png', 'image/jpeg'] })
        .optional()
        .nullable(),
    });
    const scan = api.collections[0]!.fields.find((x) => x.name === 'scan')!;
    expect(scan.type).toEqual({ kind: 'file', maxBytes: 5_000_000, types: ['image/png', 'image/jpeg'] });
    expect(scan).toMatchObject({ optional: true, nullable: true, unique: false, filterable: false });
  });
});
