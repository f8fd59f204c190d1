/**
 * Every mistake in events is a diagnostic at the exact property or builder call: one small API per case,
 * one mistake, the line marked `// <-`. Asserts the code, the exact line and column, a part of the
 * message, that it is the only diagnostic, and that nothing was written.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir } from '../helpers/temp-api.ts';

const tmp = tempDir('event-diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly name: string;
  readonly code: DiagnosticCode;
  /** The `events` line of orders (default: created). */
  readonly events?: string;
  /** More options of orders. */
  readonly options?: string;
  /** Options of defineApi after collections. */
  readonly api?: string;
  /** More collections. */
  readonly collections?: string;
  readonly auth?: string;
  readonly at: string;
  readonly says: string;
}

const source = (c: Case): string => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'shop',
  versions: { v1: {}, v2: {} },
  ${c.auth ?? 'auth: { bearer: {} },'}
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        quantity: f.int().min(1),
        status: f.enum(['open', 'paid', 'cancelled']).readOnly(),
      },
      ${c.events ?? "events: ['created'],"}
      lifecycle: {
        field: 'status',
        initial: 'open',
        transitions: { pay: { from: ['open'], to: 'paid' }, cancel: { from: ['open', 'paid'], to: 'cancelled' } },
      },
      ${c.options ?? ''}
    }),
    ${c.collections ?? ''}
  },
  ${c.api ?? ''}
});
`;

const CASES: Case[] = [
  {
    name: 'an event of a transition that does not exist',
    code: 'RG351',
    events: "events: ['created', 'shipped'], // <-",
    at: "'shipped'",
    says: 'names no state a transition leads to; a transition event is named after the state it enters (paid, cancelled)',
  },
  {
    name: 'an event name on a collection without lifecycle',
    code: 'RG350',
    collections: "notes: collection({ fields: { id: f.id() }, events: ['archived'] }), // <-",
    at: "'archived'",
    says: 'neither created, updated nor deleted',
  },
  { name: 'an event listed twice', code: 'RG352', events: "events: ['created', 'created'], // <-", at: "'created']", says: "event 'created' is listed twice" },
  {
    name: 'an event of an operation the collection lacks',
    code: 'RG359',
    events: "events: ['deleted'], operations: ['list', 'get', 'create'], // <-",
    at: "'deleted'",
    says: 'the delete operation',
  },
  {
    name: 'an unknown version in an event marker',
    code: 'RG150',
    events: "events: [{ name: 'created', addedIn: 'v9' }], // <-",
    at: '{ name',
    says: "addedIn 'v9' names an unknown version",
  },
  {
    name: 'an invalid custom event type',
    code: 'RG353',
    api: 'events: { Overdue: { payload: {} } }, // <-',
    at: 'Overdue',
    says: "'Overdue' is not a valid event type",
  },
  {
    name: 'a custom event with a derived type',
    code: 'RG352',
    api: "events: { 'order.created': { payload: {} } }, // <-",
    at: "'order.created'",
    says: "also a collection's derived event",
  },
  {
    name: 'a read-only payload field',
    code: 'RG355',
    api: "events: { 'invoice.overdue': { payload: { amount: f.int().readOnly() } } }, // <-",
    at: 'readOnly',
    says: 'means nothing in an event payload',
  },
  {
    name: 'a type change in a payload',
    code: 'RG356',
    api: "events: { 'invoice.overdue': { payload: { amount: f.int().typeChangedFrom('v2', f.string()) } } }, // <-",
    at: 'typeChangedFrom',
    says: 'not supported in an event payload',
  },
  {
    name: 'a ref to an unknown collection in a payload',
    code: 'RG139',
    api: "events: { 'invoice.overdue': { payload: { invoice: f.ref('invoices') } } }, // <-",
    at: "ref('invoices')",
    says: 'names an unknown collection',
  },
  {
    name: 'a required payload field removed without fallback',
    code: 'RG154',
    api: "events: { 'invoice.overdue': { payload: { amount: f.int().removedIn('v2') } } }, // <-",
    at: 'removedIn',
    says: 'is required but removed in v2',
  },
  {
    name: 'a collection named webhook_endpoints',
    code: 'RG360',
    collections: 'webhook_endpoints: collection({ fields: { id: f.id() } }), // <-',
    at: 'collection(',
    says: 'webhook_endpoints is taken',
  },
  {
    name: 'a collection at the path of the event stream',
    code: 'RG360',
    collections: "notices: collection({ path: 'events', fields: { id: f.id() } }), // <-",
    at: 'collection(',
    says: 'events is taken by the event stream (GET /vN/events)',
  },
  {
    name: 'webhooks options without events',
    code: 'RG361',
    events: '',
    api: "webhooks: { scopes: { read: 'w:read' } }, // <-",
    at: 'webhooks',
    says: 'declares no events',
  },
  {
    name: 'webhook scopes without auth',
    code: 'RG111',
    auth: '',
    api: "webhooks: { scopes: { read: 'w:read' } }, // <-",
    at: 'scopes',
    says: 'the API has no auth',
  },
];

describe('event diagnostics', () => {
  for (const [i, c] of CASES.entries())
    it(`${c.code}: ${c.name}`, async () => {
      await expectOnlyDiagnostic(path.join(tmp.dir, `case-${i}`), source(c), { code: c.code, at: c.at, says: c.says });
    });
});

describe('event codes', () => {
  it('has a case for every code of RG350-RG379', async () => {
    const { DIAGNOSTIC_CODES } = await import('../../generator/model/diagnostics.ts');
    const tested = new Set(CASES.map((c) => c.code));
    const mine = Object.keys(DIAGNOSTIC_CODES).filter((code) => /^RG3[5-7]\d$/.test(code));
    expect(mine.filter((code) => !tested.has(code as DiagnosticCode))).toEqual([]);
  });
});
