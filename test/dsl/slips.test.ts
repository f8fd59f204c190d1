/**
 * The run time mirrors the DSL's types: what `tsc` would reject in an API module (builders not called,
 * plain objects where `collection()` belongs, values of the wrong kind, modifiers a kind does not have,
 * unknown options, extra arguments) is a located diagnostic at `generate` time, never a crash and never
 * silently dropped. Every case asserts the code, the exact line and the exact column.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('slips');
afterAll(tmp.cleanup);

interface Case {
  readonly code: DiagnosticCode;
  /** Entries of the `things` collection's fields, or (with `collection`) its other options. */
  readonly fields?: string;
  readonly collection?: string;
  /** Extra entries of `collections`, or (with `api`) top-level options of defineApi. */
  readonly collections?: string;
  readonly api?: string;
  /** The diagnostic's column is where this text starts on the line marked `// <-`. */
  readonly at: string;
  /** A part of the message. */
  readonly says: string;
}

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  ${c.api ?? ''}
  collections: {
    things: collection({
      fields: {
        id: f.id(),
${c.fields ?? ''}
      },
${c.collection ?? ''}
    }),
${c.collections ?? ''}
  },
});
`;

const cases: Case[] = [
  {
    code: 'RG170',
    fields: `        title: f.string, // <-`,
    at: 'title',
    says: 'things.title: the function string is a builder that was not called; write f.string()',
  },
  {
    code: 'RG170',
    fields: `        tags: f.array(f.string).optional(), // <-`,
    at: 'array',
    says: 'array() was given the function string without calling it; write f.string()',
  },
  { code: 'RG170', collections: `    others: collection, // <-`, at: 'others', says: 'collections.others: the function collection was not called' },
  { code: 'RG171', collections: `    others: { fields: { id: f.id() } }, // <-`, at: 'others', says: 'wrap its options in collection({...})' },
  { code: 'RG172', fields: `        title: 'string', // <-`, at: 'title', says: 'things.title: the string "string" is not a field' },
  {
    code: 'RG172',
    fields: `        address: f.object({ street: f.string(), zip: 5 }).optional(), // <-`,
    at: 'zip',
    says: 'things.address.zip: object() was given the number 5 where a field belongs',
  },
  { code: 'RG173', fields: `        size: f.int().min('1' as unknown as number), // <-`, at: 'min', says: 'min() takes a number, not the string "1"' },
  {
    code: 'RG173',
    fields: `        code: f.string().pattern(5 as unknown as string), // <-`,
    at: 'pattern',
    says: 'pattern() takes a RegExp or a string, not the number 5',
  },
  { code: 'RG173', fields: `        kind: f.enum('open' as unknown as ['open']), // <-`, at: 'enum', says: 'enum() takes an array of strings' },
  {
    code: 'RG173',
    fields: `        note: f.string().optional().removedIn('v2', { fallbak: '' } as never), // <-`,
    at: 'removedIn',
    says: 'removedIn() takes options of the form { fallback: value }, not { fallbak }',
  },
  {
    code: 'RG174',
    fields: `        size: f.int().pattern(/^1/), // <-`.replace('f.int()', '(f.int() as unknown as ReturnType<typeof f.string>)'),
    at: 'pattern',
    says: '.pattern() does not apply to f.int(); only f.string() has it',
  },
  {
    code: 'RG174',
    fields: `        done: (f.boolean() as unknown as ReturnType<typeof f.int>).min(1), // <-`,
    at: 'min',
    says: '.min() does not apply to f.boolean()',
  },
  { code: 'RG175', collection: `      path: 5 as unknown as string, // <-`, at: 'path', says: 'things: path must be a string (got the number 5)' },
  {
    code: 'RG175',
    collection: `      operations: 'list' as unknown as ['list'], // <-`,
    at: 'operations',
    says: 'things: operations must be an array (got the string "list")',
  },
  {
    code: 'RG175',
    api: `rateLimit: { limit: 5, window: '1m' }, title: ['Demo'] as unknown as string, // <-`,
    at: 'title',
    says: 'defineApi: title must be a string (got an array)',
  },
  { code: 'RG176', collection: `      operation: ['list'], // <-`, at: 'operation', says: "things: unknown option 'operation' (did you mean 'operations'?)" },
  {
    code: 'RG176',
    api: `auth: { bearer: {}, openid: {} }, // <-`,
    at: 'openid',
    says: "defineApi: unknown option 'openid'; auth takes bearer, apiKey, oauth2",
  },
  { code: 'RG177', fields: `        note: f.string().optional(true as never), // <-`, at: 'optional', says: 'optional() takes no arguments (got 1 argument)' },
  { code: 'RG177', fields: `        size: f.int(10 as never), // <-`, at: 'int', says: 'int() takes no arguments (got 1 argument)' },
];

describe('slips the types reject are diagnostics at generate time', () => {
  it('covers every code from RG170 to RG179 that exists', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG17\d$/.test(c));
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, name: `${c.code} #${i + 1}` })))('$name: $says', async (c) => {
    const text = source(c);
    await expectOnlyDiagnostic(path.join(tmp.dir, c.name.replace(/\W+/g, '-')), text, c);
  });

  it('a field that is not a builder is one mistake: no "no id field" when it was the id', async () => {
    const dir = path.join(tmp.dir, 'uncalled-id');
    writeFiles(dir, { 'api.ts': source({ code: 'RG170', at: '', says: '' }).replace('id: f.id(),', 'id: f.id,') });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'RG170 things.id: the function id is a builder that was not called; write f.id().',
    ]);
  });

  it('reports a slip and the other mistakes of the same run together', async () => {
    const dir = path.join(tmp.dir, 'together');
    writeFiles(dir, { 'api.ts': source({ code: 'RG170', fields: `        a: f.string,\n        b: f.int().min(5).max(1),`, at: '', says: '' }) });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['RG131', 'RG170']);
  });
});
