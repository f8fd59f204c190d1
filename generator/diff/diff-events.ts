/**
 * @module The events of two projections: an event type removed (breaking: its subscribers receive nothing
 * more), added (safe), and a custom event's payload compared by the response rules (it flows from the
 * server to subscribers only). A derived event's payload is its collection's resource, whose changes the
 * collection's own findings report.
 */
import type { ApiAt, CollectionAt, EventAt } from '../model/ir.ts';
import { eventOp, touchesOf, type FindingCollector } from './collector.ts';
import { compareOutputFields, type FieldDiffContext } from './diff-fields.ts';
import type { RenameResolver } from './types.ts';

/** A stand-in collection that names an event's touches (`WEBHOOK order.created`, `v1.WebhookEvent`). */
function eventSide(e: EventAt): CollectionAt {
  return {
    kind: 'collection-at',
    name: e.type,
    key: e.type,
    path: `webhooks/${e.type}`,
    typeName: 'WebhookEvent',
    fields: [],
    operations: [],
    scopes: { read: [], write: [] },
    public: [],
    pagination: { defaultLimit: 1, maxLimit: 1 },
    query: { filters: [], sortable: [], defaultSort: [], fields: [], expandable: [] },
    requireIfMatch: false,
    loc: e.loc,
  };
}

/** Compares the event types of two projections. */
export function compareEvents(
  out: FindingCollector,
  before: ApiAt,
  after: ApiAt,
  options: { readonly match: 'key' | 'name'; readonly resolveRename: RenameResolver; readonly markerVersion: string | null },
): void {
  const b = new Map((before.events ?? []).map((e) => [e.type, e]));
  const a = new Map((after.events ?? []).map((e) => [e.type, e]));
  for (const [type, e] of b)
    if (!a.has(type)) {
      const t = touchesOf(before, eventSide(e), [eventOp(type)]);
      out.add('event-removed', `webhooks.${type}`, `the ${type} event is no longer sent`, { request: [], response: t }, e.loc, {
        aspect: 'event',
        before: type,
      });
    }
  for (const [type, e] of a) {
    const old = b.get(type);
    if (!old) {
      const t = touchesOf(after, eventSide(e), [eventOp(type)]);
      out.add('event-added', `webhooks.${type}`, `the ${type} event is sent`, { request: [], response: t }, e.loc, { aspect: 'event', after: type });
      continue;
    }
    if (old.source.kind !== 'custom' || e.source.kind !== 'custom') continue;
    const ctx: FieldDiffContext = {
      out,
      ...options,
      before: { api: before, collection: eventSide(old) },
      after: { api: after, collection: eventSide(e) },
    };
    compareOutputFields(ctx, old.source.payload, e.source.payload, `webhooks.${type}`, eventOp(type), e.loc);
  }
}
