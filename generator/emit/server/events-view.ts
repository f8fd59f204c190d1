/**
 * @module The view model of `server/events.ts`: the event types each version delivers, what each derived
 * event is about, and each custom event's payload per version (a zod object and the down plan that turns
 * the newest payload into that version's). Written only for an API that declares events.
 */
import type { ApiIR, FieldAt } from '../../model/ir.ts';
import { existsAt, projectEvents, projectCollection } from '../../model/project.ts';
import { e, type Expr } from '../../printer/ast.ts';
import { baseExpression, defaultArgument } from '../zod/zod-expression.ts';
import { planFieldsDown } from './migration-plan.ts';

/** The view of `server/events.ts`. */
export interface EventsView {
  readonly name: string;
  /** The constant's name (`SHOP_WEBHOOKS`). */
  readonly constName: string;
  /** The built-in webhook endpoints collection's name, as a string literal. */
  readonly collection: Expr;
  /** Per version, the event types it delivers. */
  readonly versions: Expr;
  /** Per derived event type, its collection, action and state. */
  readonly resources: Expr;
  /** Per custom event type and version, `{ schema, down }`: the payload's zod object and its down plan from the newest version. */
  readonly custom: Expr;
  /** Whether there are custom events (only then is zod imported). */
  readonly hasCustom: boolean;
}

/** The zod object of a payload: every field as responses carry it (optional ones optional). */
function payloadSchema(fields: readonly FieldAt[]): Expr {
  const members = fields.map((f) => {
    const base = baseExpression(f, 'response');
    const expr = f.default ? e.chain(base, ['default', defaultArgument(f.default.value)]) : f.optional ? e.chain(base, ['optional']) : base;
    return e.prop(f.name, expr);
  });
  return e.chain(e.id('z'), ['object', e.obj(members)]);
}

/** The constant `server/events.ts` exports, from the route table's (`SHOP_API` → `SHOP_WEBHOOKS`). */
export const eventsConstOf = (specName: string): string => specName.replace(/_API$/, '_WEBHOOKS');

/** The view of `server/events.ts`, or null when the API declares no events. */
export function buildEventsView(api: ApiIR, name: string, specName: string): EventsView | null {
  const endpoints = api.collections.find((c) => c.builtin === 'webhook-endpoints');
  if (!endpoints) return null;
  const names = api.versions.map((v) => v.name);
  const versions: Record<string, readonly string[]> = {};
  const resources: Record<string, { collection: string; action: string; state: string | null }> = {};
  names.forEach((v, at) => {
    const collections = api.collections.flatMap((c) => projectCollection(names, at, c) ?? []);
    const events = projectEvents(api, at, collections);
    versions[v] = events.map((ev) => ev.type);
    for (const ev of events)
      if (ev.source.kind === 'resource') resources[ev.type] = { collection: ev.source.collection, action: ev.source.action, state: ev.source.state ?? null };
  });
  const custom = (api.events ?? []).map((ev) => {
    const alive = names.map((_, i) => i).filter((i) => existsAt(names, i, ev.addedIn, ev.removedIn));
    const top = alive[alive.length - 1] ?? 0;
    return {
      type: ev.type,
      payloads: alive.map((at) => {
        const collections = api.collections.flatMap((c) => projectCollection(names, at, c) ?? []);
        const event = projectEvents(api, at, collections).find((x) => x.type === ev.type);
        const fields = event?.source.kind === 'custom' ? event.source.payload : [];
        return { version: names[at]!, schema: payloadSchema(fields.filter((f) => !f.writeOnly)), down: planFieldsDown(names, ev.payload, at, top, null) };
      }),
    };
  });
  // The template wrote `custom` and each event's entry with a newline after `{`: prettier keeps them expanded.
  const customExpr = e.obj(
    custom.map((c) =>
      e.prop(
        c.type,
        e.obj(
          c.payloads.map((p) => e.prop(p.version, e.obj([e.prop('schema', p.schema), e.prop('down', e.json(p.down))]))),
          true,
        ),
      ),
    ),
    true,
  );
  return {
    name,
    constName: eventsConstOf(specName),
    collection: e.str(endpoints.name),
    versions: e.json(versions),
    resources: e.json(resources),
    custom: customExpr,
    hasCustom: custom.length > 0,
  };
}

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'server/events': EventsView;
  }
}
