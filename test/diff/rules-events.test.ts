/**
 * The diff rules of events: an event type removed (breaking), added (safe), a custom event's payload by
 * the response rules (a field added: safe; a required field removed or made optional: breaking; an enum
 * value added: warning); both one released version edited (as the lock and `--base` see it, also through
 * the lock's contract) and two versions of one definition.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { CustomEventDef } from '../../generator/dsl/index.ts';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import { apiAtOfContract, contractOf } from '../../generator/lock/contract.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';
import { diffBetween, diffEdit, irOf, summary } from './helpers.ts';

function api(
  events: readonly string[],
  custom: Record<string, CustomEventDef> = {},
  versions: Record<string, { released?: string }> = { v1: { released: '2026-01-01' } },
): ApiIR {
  return irOf(
    defineApi({
      name: 'test',
      versions,
      auth: { bearer: {} },
      collections: {
        items: collection({
          fields: { id: f.id(), name: f.string(), status: f.enum(['open', 'closed']).readOnly() },
          events,
          lifecycle: { field: 'status', initial: 'open', transitions: { close: { from: ['open'], to: 'closed' } } },
        }),
      },
      events: custom,
    }),
  );
}

describe('event types', () => {
  it('removed: breaking, naming the webhook; added: safe', () => {
    const removed = diffEdit(api(['created', 'closed']), api(['created']));
    expect(summary(removed)).toEqual([{ id: 'event-removed', level: 'breaking', location: 'webhooks.item.closed' }]);
    expect(removed[0]!.affects).toEqual({ routes: ['WEBHOOK item.closed'], client: ['v1.WebhookEvent'], mcp: [] });
    expect(removed[0]!.direction).toBe('response');
    const added = diffEdit(api(['created']), api(['created', 'updated']));
    expect(summary(added)).toEqual([{ id: 'event-added', level: 'safe', location: 'webhooks.item.updated' }]);
  });

  it('a custom event added in a later version is safe between the versions; removed, breaking', () => {
    const two = { v1: { released: '2026-01-01' }, v2: {} };
    const later = api(['created'], { 'item.flagged': { payload: { reason: f.string() }, addedIn: 'v2' } }, two);
    expect(summary(diffBetween(later, 'v1', 'v2'))).toEqual([{ id: 'event-added', level: 'safe', location: 'webhooks.item.flagged' }]);
    const gone = api(['created'], { 'item.flagged': { payload: { reason: f.string() }, removedIn: 'v2' } }, two);
    expect(summary(diffBetween(gone, 'v1', 'v2'))).toEqual([{ id: 'event-removed', level: 'breaking', location: 'webhooks.item.flagged' }]);
  });
});

describe('custom event payloads by the response rules', () => {
  const payload = (fields: CustomEventDef['payload']) => api(['created'], { 'item.flagged': { payload: fields } });

  it('an optional field added: safe; a required field removed: breaking', () => {
    const base = payload({ reason: f.string() });
    expect(summary(diffEdit(base, payload({ reason: f.string(), note: f.string().optional() })))).toEqual([
      { id: 'optional-field-added', level: 'safe', location: 'webhooks.item.flagged.note' },
    ]);
    const removed = diffEdit(base, payload({}));
    expect(summary(removed)).toEqual([{ id: 'required-field-removed', level: 'breaking', location: 'webhooks.item.flagged.reason' }]);
    expect(removed[0]!.affects.routes).toEqual(['WEBHOOK item.flagged']);
  });

  it('made optional: breaking (a subscriber relied on it); an enum value added: warning; a bound loosened: breaking', () => {
    expect(summary(diffEdit(payload({ reason: f.string() }), payload({ reason: f.string().optional() })))).toEqual([
      { id: 'response-field-became-optional', level: 'breaking', location: 'webhooks.item.flagged.reason' },
    ]);
    expect(summary(diffEdit(payload({ level: f.enum(['low']) }), payload({ level: f.enum(['low', 'high']) })))).toEqual([
      { id: 'response-enum-value-added', level: 'warning', location: 'webhooks.item.flagged.level' },
    ]);
    expect(summary(diffEdit(payload({ n: f.int().max(5) }), payload({ n: f.int().max(9) })))).toEqual([
      { id: 'response-bound-loosened', level: 'breaking', location: 'webhooks.item.flagged.n' },
    ]);
  });

  it('a payload is not stored: tightening it warns of no existing data', () => {
    expect(summary(diffEdit(payload({ n: f.int().max(9) }), payload({ n: f.int().max(5) })))).toEqual([
      { id: 'response-bound-tightened', level: 'safe', location: 'webhooks.item.flagged.n' },
    ]);
  });

  it('the lock contract keeps events: a removal against the locked version is found', () => {
    const locked = apiAtOfContract(
      'test',
      contractOf(api(['created', 'closed'], { 'item.flagged': { payload: { reason: f.string() } } }), 'v1'),
      'restgen.lock.json',
    );
    const now = project(api(['created'], { 'item.flagged': { payload: {} } }), 'v1');
    expect(summary(diffApis(locked, now, { match: 'name' }))).toEqual([
      { id: 'event-removed', level: 'breaking', location: 'webhooks.item.closed' },
      { id: 'required-field-removed', level: 'breaking', location: 'webhooks.item.flagged.reason' },
    ]);
  });
});
