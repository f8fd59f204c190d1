/**
 * Every mistake in what a list query may do (filter operators, sort keys, expansions, defaultSort) is a
 * diagnostic at the exact builder call or option: one small API per case, one mistake, the line marked `// <-`.
 * Asserts the code, the exact line and column, a part of the message, that it is the only diagnostic, and that
 * nothing was written. (The API modules are plain JavaScript as far as the checks go: they are not type-checked,
 * so the builders' run-time checks are what stands between a mistake and the generated code.)
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir } from '../helpers/temp-api.ts';

const tmp = tempDir('query-diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly code: DiagnosticCode;
  /** More fields of `books` (its id is there). */
  readonly fields: string;
  /** More options of `books`. */
  readonly options?: string;
  /** The options of `authors` (default: fields id and name, every operation). */
  readonly authors?: string;
  readonly at: string;
  readonly says: string;
}

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'library',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    authors: collection(${c.authors ?? `{ fields: { id: f.id(), name: f.string() } }`}),
    books: collection({
      fields: {
        id: f.id(),
${c.fields}
      },
${c.options ?? ''}
    }),
  },
});
`;

const cases: Case[] = [
  {
    code: 'RG340',
    fields: `        signed: f.boolean().filterable({ ops: ['eq', 'gt'] }), // <-`,
    at: 'filterable',
    says: "books.signed: operator 'gt' compares by order, and boolean values have none",
  },
  {
    code: 'RG340',
    fields: `        isbn: f.uuid().filterable({ ops: ['in', { op: 'lte', addedIn: 'v2' }] }), // <-`,
    at: 'filterable',
    says: "books.isbn: operator 'lte' compares by order",
  },
  {
    code: 'RG341',
    fields: `        price: f.number().filterable({ ops: ['eq', 'gtee'] }), // <-`,
    at: 'filterable',
    says: "books.price: ops[1] is 'gtee' (did you mean 'gte'?)",
  },
  {
    code: 'RG341',
    fields: `        price: f.number().filterable({ ops: ['gte', { op: 'gte', addedIn: 'v2' }] }), // <-`,
    at: 'filterable',
    says: "operator 'gte' is listed twice in ops",
  },
  {
    code: 'RG341',
    fields: `        price: f.number().filterable({ ops: [] }), // <-`,
    at: 'filterable',
    says: 'filterable({ ops: [] }) offers no operator',
  },
  {
    code: 'RG341',
    fields: `        price: f.number().filterable({ ops: [{ op: 'lt', since: 'v2' }] }), // <-`,
    at: 'filterable',
    says: "ops[0] is an entry with 'since'",
  },
  {
    code: 'RG342',
    fields: `        genre: f.enum(['poetry', 'drama']).sortable(), // <-`,
    at: 'sortable',
    says: 'books.genre: sortable() needs a kind with an order (int, number, date, datetime, string); enum values have none',
  },
  {
    code: 'RG343',
    fields: `        secret: f.string().writeOnly().sortable(), // <-`,
    at: 'sortable',
    says: 'books.secret: a write-only field is never answered, so a list cannot sort by it',
  },
  {
    code: 'RG343',
    fields: `        secret: f.string().writeOnly().filterable({ ops: ['in'] }), // <-`,
    at: 'filterable',
    says: 'books.secret: a write-only field is never answered, so a list cannot filter by it',
  },
  {
    code: 'RG344',
    fields: `        title: f.string().expandable(), // <-`,
    at: 'expandable',
    says: "books.title: expandable() applies to f.ref('collection') fields",
  },
  {
    code: 'RG345',
    authors: `{ fields: { id: f.id(), name: f.string() }, operations: ['list', 'create'] }`,
    fields: `        author: f.ref('authors').expandable(), // <-`,
    at: 'expandable',
    says: 'books.author: expandable() reads authors through its get handler, which authors does not offer in v1, v2',
  },
  {
    code: 'RG346',
    fields: `        title: f.string().sortable(),`,
    options: `      defaultSort: '-titel', // <-`,
    at: 'defaultSort',
    says: "books: defaultSort '-titel' names 'titel', which is no field of books",
  },
  {
    code: 'RG346',
    fields: `        title: f.string().sortable({ addedIn: 'v2' }), // <-`,
    options: `      defaultSort: 'title',`,
    at: 'sortable',
    says: "books: defaultSort names 'title', which is not a sort key in v1",
  },
  {
    code: 'RG347',
    fields: `        sort: f.string().filterable(), // <-`,
    at: 'filterable',
    says: "books.sort: a filter on 'sort' would be ?sort=, which every list reads as its own parameter",
  },
  {
    code: 'RG348',
    fields: `        address: f.object({ zip: f.string().sortable() }), // <-`,
    at: 'sortable',
    says: "books.address.zip: .sortable() applies to a collection's own fields only",
  },
  {
    code: 'RG150',
    fields: `        pages: f.int().sortable({ addedIn: 'v9' }), // <-`,
    at: 'sortable',
    says: "books.pages: sortable(): addedIn 'v9' names no declared version",
  },
  {
    code: 'RG163',
    fields: `        author: f.ref('authors').expandable({ removedIn: 'v1' }), // <-`,
    at: 'expandable',
    says: 'books.author: expandable() is removed in v1, the first version, so it holds in no version',
  },
  {
    code: 'RG173',
    fields: `        pages: f.int().sortable('v2'), // <-`,
    at: 'sortable',
    says: "sortable() takes nothing, or { addedIn: 'v2' } / { removedIn: 'v3' }, not the string \"v2\"",
  },
  {
    code: 'RG173',
    fields: `        pages: f.int().filterable(['gt']), // <-`,
    at: 'filterable',
    says: "filterable() takes nothing, or { ops: ['eq', 'in', ...] }, not an array",
  },
];

describe('list query diagnostics', () => {
  it('covers every code from RG340 to RG349 that exists', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG34\d$/.test(c));
    expect(codes.length).toBeGreaterThan(5);
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, name: `${c.code} #${i + 1}` })))('$name: $says', async (c) => {
    await expectOnlyDiagnostic(path.join(tmp.dir, c.name.replace(/\W+/g, '-')), source(c), c);
  });
});
