/**
 * Every mistake a lifecycle or an enum value added later can hold is a diagnostic at the exact property or
 * builder call: one small API per case, one mistake, the line marked `// <-`. Asserts the code, the exact
 * line and column, a part of the message, that it is the only diagnostic, and that nothing was written.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('lifecycle-diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly code: DiagnosticCode;
  /** The status field's builder (default: a read-only enum of open, paid, cancelled). */
  readonly status?: string;
  /** More fields of `orders`. */
  readonly fields?: string;
  readonly field?: string;
  readonly initial?: string;
  /** The entries of `transitions` (default: pay and cancel). */
  readonly transitions?: string;
  /** More options of `orders`. */
  readonly options?: string;
  /** The API's auth option (default bearer). */
  readonly auth?: string;
  /** The diagnostic's column is where this text starts on the line marked `// <-`. */
  readonly at: string;
  readonly says: string;
}

const PAY_CANCEL = `          pay: { from: ['open'], to: 'paid' },
          cancel: { from: ['open', 'paid'], to: 'cancelled' },`;

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} },
  ${c.auth ?? 'auth: { bearer: {} },'}
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        status: ${c.status ?? `f.enum(['open', 'paid', 'cancelled']).readOnly()`},
${c.fields ?? ''}
      },
${c.options ?? ''}
      lifecycle: {
        field: ${c.field ?? `'status'`},
        initial: ${c.initial ?? `'open'`},
        transitions: {
${c.transitions ?? PAY_CANCEL}
        },
      },
    }),
  },
});
`;

const cases: Case[] = [
  {
    code: 'RG320',
    field: `'state' as 'status', // <-`,
    at: 'field',
    says: "orders: lifecycle.field 'state' is not a field of the collection (it has id, status)",
  },
  {
    code: 'RG321',
    status: `f.enum(['open', 'paid', 'cancelled']).filterable(), // <-`,
    at: 'enum',
    says: "orders.status holds the lifecycle's state, so it must be read-only",
  },
  { code: 'RG321', status: `f.string().readOnly(), // <-`, at: 'string', says: 'it must be an f.enum([...]) (it is string)' },
  {
    code: 'RG322',
    initial: `'new', // <-`,
    at: 'initial',
    says: "orders: initial state 'new' is not a state; the states are the values of the lifecycle field: open, paid, cancelled",
  },
  {
    code: 'RG322',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'canceled' as 'cancelled' }, // <-\n          drop: { from: ['paid'], to: 'cancelled' },`,
    at: 'to:',
    says: "transition cancel: to 'canceled' is not a state",
  },
  {
    code: 'RG323',
    status: `f.enum(['draft', 'open', 'paid', 'cancelled']).readOnly().valueAddedIn('v2', 'draft', { fallback: 'open' })`,
    initial: `'draft', // <-`,
    transitions: `          submit: { from: ['draft'], to: 'open', addedIn: 'v2' },\n${PAY_CANCEL}`,
    at: 'initial',
    says: "the initial state 'draft' is only added in v2",
  },
  {
    code: 'RG324',
    status: `f.enum(['open', 'paid', 'cancelled', 'lost']).readOnly()`,
    transitions: PAY_CANCEL,
    at: 'transitions',
    says: "orders: no transition leads from the initial state 'open' to 'lost'",
  },
  {
    code: 'RG325',
    transitions: `${PAY_CANCEL}\n          delete: { from: ['paid'], to: 'cancelled' }, // <-`,
    at: 'delete',
    says: "transition 'delete' clashes with the delete operation",
  },
  {
    code: 'RG325',
    transitions: `${PAY_CANCEL}\n          'mark-paid': { from: ['open'], to: 'paid' }, // <-`,
    at: "'mark-paid'",
    says: 'must be an identifier starting with a lower-case letter',
  },
  {
    code: 'RG325',
    transitions: `${PAY_CANCEL}\n          toString: { from: ['open'], to: 'paid' }, // <-`,
    at: 'toString',
    says: 'clashes with a method every JavaScript object has',
  },
  {
    code: 'RG326',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid', 'open'], to: 'cancelled' }, // <-`,
    at: 'from',
    says: "orders:cancel: from lists 'open' twice",
  },
  {
    code: 'RG327',
    status: `f.enum(['open', 'paid', 'cancelled', 'refunded']).readOnly().valueAddedIn('v3', 'refunded', { fallback: 'cancelled' })`,
    transitions: `${PAY_CANCEL}\n          refund: { from: ['paid'], to: 'refunded' }, // <-`,
    at: 'refund',
    says: "orders:refund exists in v1, v2, which do not have the state 'refunded' it moves to; add addedIn: 'v3' to the transition",
  },
  {
    code: 'RG328',
    status: `f.enum(['open', 'paid', 'cancelled']).readOnly().addedIn('v2'), // <-`,
    at: 'addedIn',
    says: "orders.status: addedIn('v2') is not allowed on the lifecycle field",
  },
  { code: 'RG329', options: `      operations: ['list', 'create'], // <-`, at: 'operations', says: 'a lifecycle needs the get operation' },
  {
    code: 'RG330',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'cancelled', input: { reason: f.string().typeChangedFrom('v2', f.int()) } }, // <-`,
    at: 'typeChangedFrom',
    says: "orders:cancel.reason: typeChangedFrom('v2') is not supported in a transition's input",
  },
  {
    code: 'RG331',
    fields: `        kind: f.enum(['a', 'b']).valueAddedIn('v2', 'c' as 'b', { fallback: 'a' }), // <-`,
    at: 'valueAddedIn',
    says: "orders.kind: valueAddedIn('v2', 'c') names a value the enum does not have (a, b)",
  },
  {
    code: 'RG332',
    fields: `        kind: f.enum(['a', 'b']).valueAddedIn('v2', 'b', { fallback: 'b' }), // <-`,
    at: 'valueAddedIn',
    says: "valueAddedIn('v2', 'b') falls back to itself",
  },
  {
    code: 'RG332',
    fields: `        kind: f.enum(['a', 'b', 'c'])\n          .valueAddedIn('v2', 'b', { fallback: 'c' }) // <-\n          .valueAddedIn('v3', 'c', { fallback: 'a' }),`,
    at: 'valueAddedIn',
    says: "falls back to 'c', which is only added in v3",
  },
  {
    code: 'RG333',
    fields: `        kind: f.enum(['a', 'b']).optional().addedIn('v2').valueAddedIn('v2', 'b', { fallback: 'a' }), // <-`,
    at: 'valueAddedIn',
    says: "orders.kind: valueAddedIn('v2', 'b') needs the field to have this enum both in v2 and in the version before it",
  },
  {
    code: 'RG334',
    fields: `        kind: f.enum(['a', 'b']).default('b').valueAddedIn('v2', 'b', { fallback: 'a' }), // <-`,
    at: 'default',
    says: 'orders.kind: the default "b" uses \'b\', which only exists from v2 on',
  },
  // Codes shared with fields and collections, in a lifecycle.
  {
    code: 'RG111',
    auth: '',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'cancelled', scopes: 'orders:cancel' }, // <-`,
    at: 'scopes',
    says: 'orders:cancel: scopes are declared but the API has no auth',
  },
  {
    code: 'RG113',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'cancelled', rateLimit: { limit: 0, window: '1m' } }, // <-`,
    at: 'rateLimit',
    says: 'orders:cancel: rateLimit needs a whole limit of at least 1',
  },
  {
    code: 'RG150',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'cancelled', addedIn: 'v9' }, // <-`,
    at: 'addedIn',
    says: "orders:cancel: addedIn 'v9' names an unknown version",
  },
  {
    code: 'RG151',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'cancelled', addedIn: 'v3', removedIn: 'v2' }, // <-`,
    at: 'removedIn',
    says: 'orders:cancel is removed in v2 but only added in v3',
  },
  {
    code: 'RG141',
    transitions: `          pay: { from: ['open'], to: 'paid', input: { at: f.datetime().readOnly() } }, // <-\n          cancel: { from: ['open', 'paid'], to: 'cancelled' },`,
    at: 'readOnly',
    says: "orders:pay.at: .readOnly() means nothing in a transition's input",
  },
  {
    code: 'RG156',
    transitions: `          pay: { from: ['open'], to: 'paid', input: { amount: f.int().addedIn('v2') } }, // <-\n          cancel: { from: ['open', 'paid'], to: 'cancelled' },`,
    at: 'addedIn',
    says: 'orders:pay.amount is required and added in v2',
  },
  {
    code: 'RG159',
    fields: `        kind: f.enum(['a', 'b']).valueAddedIn('v2', 'b', { fallback: 'a' }).valueAddedIn('v3', 'b', { fallback: 'a' }), // <-`,
    at: "valueAddedIn('v3'",
    says: "valueAddedIn() is given twice for 'b'",
  },
  {
    code: 'RG163',
    fields: `        kind: f.enum(['a', 'b']).valueAddedIn('v1', 'b', { fallback: 'a' }), // <-`,
    at: 'valueAddedIn',
    says: "valueAddedIn('v1', 'b') names the first version",
  },
  {
    code: 'RG174',
    fields: `        kind: (f.string() as unknown as ReturnType<typeof f.enum<'a'>>).valueAddedIn('v2', 'a', { fallback: 'a' }), // <-`,
    at: 'valueAddedIn',
    says: '.valueAddedIn() does not apply to f.string(); only f.enum() has it',
  },
  {
    code: 'RG175',
    transitions: `          pay: { from: 'open' as unknown as ['open'], to: 'paid' }, // <-\n          cancel: { from: ['open', 'paid'], to: 'cancelled' },\n          settle: { from: ['open'], to: 'paid' },`,
    at: 'from',
    says: 'orders:pay: from must be an array of states, e.g. from: [\'open\'] (got the string "open")',
  },
  // One mistake, one diagnostic: what depends on the part at fault (events named after states, the states a broken
  // transition leads to, the field a lifecycle names, the operation an event needs) is not blamed for it.
  {
    code: 'RG322',
    initial: `'opne' as 'open', // <-`,
    options: `      events: ['created', 'paid', 'cancelled'],`,
    at: 'initial',
    says: "orders: initial state 'opne' is not a state",
  },
  {
    code: 'RG175',
    transitions: `          pay: { from: 'open' as unknown as ['open'], to: 'paid' }, // <-\n          cancel: { from: ['open', 'paid'], to: 'cancelled' },`,
    options: `      events: ['paid', 'cancelled'],`,
    at: 'from',
    says: 'orders:pay: from must be an array of states',
  },
  {
    code: 'RG322',
    transitions: `          pay: { from: ['open'], to: 'paid' },\n          cancel: { from: ['open', 'paid'], to: 'canceled' as 'cancelled' }, // <-`,
    options: `      events: ['cancelled'],`,
    at: 'to:',
    says: "transition cancel: to 'canceled' is not a state",
  },
  {
    code: 'RG170',
    status: `f.enum(['open', 'paid', 'cancelled']).readOnly as never, // <-`,
    options: `      events: ['paid'],`,
    at: 'status',
    says: 'orders.status: the function readOnly is a builder that was not called; write .readOnly() at the end of the chain',
  },
  {
    code: 'RG173',
    status: `f.enum('open' as never).readOnly(), // <-`,
    options: `      events: ['paid'],`,
    at: 'enum',
    says: 'enum() takes an array of strings',
  },
  {
    code: 'RG115',
    options: `      operations: ['list', 'get', 'craete' as 'create'], // <-\n      public: ['create'],\n      events: ['created'],`,
    at: 'operations',
    says: "orders: unknown operation 'craete' (did you mean 'create'?)",
  },
  {
    code: 'RG176',
    transitions: `          pay: { from: ['open'], to: 'paid', scope: 'x' } as never, // <-\n          cancel: { from: ['open', 'paid'], to: 'cancelled' },`,
    at: 'scope',
    says: "orders: unknown option 'scope' (did you mean 'scopes'?)",
  },
];

/** Puts the `// <-` marker after the line of the status field when a case changes it without marking a line itself. */
function marked(c: Case): string {
  const text = source(c);
  if (text.includes('// <-')) return text;
  const target = c.code === 'RG324' ? 'transitions: {' : 'status:';
  return text.replace(new RegExp(`(${target.replace(/[{}]/g, '\\$&')}[^\\n]*)`), '$1 // <-');
}

describe('lifecycle and enum diagnostics', () => {
  it('covers every code from RG320 to RG339 that exists (RG340 to RG349: query-diagnostics.test.ts)', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG3[23]\d$/.test(c));
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, name: `${c.code} #${i + 1}` })))('$name: $says', async (c) => {
    const text = marked(c);
    await expectOnlyDiagnostic(path.join(tmp.dir, c.name.replace(/\W+/g, '-')), text, c);
  });

  it('a correct lifecycle with a state and a transition added later passes', async () => {
    const dir = path.join(tmp.dir, 'fine');
    const text = source({
      code: 'RG320',
      status: `f.enum(['open', 'paid', 'cancelled', 'refunded']).readOnly().valueAddedIn('v3', 'refunded', { fallback: 'cancelled' })`,
      transitions: `${PAY_CANCEL}\n          refund: { from: ['paid'], to: 'refunded', addedIn: 'v3', input: { amount: f.int().min(1) } },`,
      at: '',
      says: '',
    });
    writeFiles(dir, { 'api.ts': text });
    const result = await generate({ apiPath: path.join(dir, 'api.ts'), parts: ['zod'] });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
