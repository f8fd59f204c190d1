/**
 * @module The view model of `server/events.ts`: the event types each version delivers, what each derived
 * event is about, and each custom event's payload per version (a zod object and the down plan that turns
 * the newest payload into that version's). Written only for an API that declares events.
 */
import type { ApiIR, FieldAt } from '../../model/ir.ts';
import { existsAt, projectEvents, projectCollection } from '../../model/project.ts';
import { baseExpression, defaultArgument, propertyKey } from '../zod/zod-expression.ts';
import { planFieldsDown, type DownPlan } from './migration-plan.ts';

/** One custom event's payload in one version. */
interface PayloadView {
  readonly version: string;
  /** The zod object of the payload's fields as that version sends them. */
  readonly schema: string;
  readonly down: DownPlan;
}

/** The view of `server/events.ts`. */
export interface EventsView {
  readonly name: string;
  /** The constant's name (`SHOP_WEBHOOKS`). */
  readonly constName: string;
  readonly collection: string;
  readonly versions: Readonly<Record<string, readonly string[]>>;
  readonly resources: Readonly<Record<string, { readonly collection: string; readonly action: string; readonly state: string | null }>>;
  readonly custom: readonly { readonly type: string; readonly payloads: readonly PayloadView[] }[];
  /** Whether there are custom events (only then is zod imported). */
  readonly hasCustom: boolean;
}

/** The zod object of a payload: every field as responses carry it (optional ones optional). */
function payloadSchema(fields: readonly FieldAt[]): string {
  const members = fields.map((f) => {
    const base = baseExpression(f, 'response');
    const expr = f.default ? `${base}.default(${defaultArgument(f.default.value)})` : f.optional ? `${base}.optional()` : base;
    return `${propertyKey(f.name)}: ${expr}`;
  });
  return `z.object({ ${members.join(', ')} })`;
}

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
    versions[v] = events.map((e) => e.type);
    for (const e of events)
      if (e.source.kind === 'resource') resources[e.type] = { collection: e.source.collection, action: e.source.action, state: e.source.state ?? null };
  });
  const custom = (api.events ?? []).map((e) => {
    const alive = names.map((_, i) => i).filter((i) => existsAt(names, i, e.addedIn, e.removedIn));
    const top = alive[alive.length - 1] ?? 0;
    return {
      type: e.type,
      payloads: alive.map((at) => {
        const collections = api.collections.flatMap((c) => projectCollection(names, at, c) ?? []);
        const event = projectEvents(api, at, collections).find((x) => x.type === e.type);
        const fields = event?.source.kind === 'custom' ? event.source.payload : [];
        return { version: names[at]!, schema: payloadSchema(fields.filter((f) => !f.writeOnly)), down: planFieldsDown(names, e.payload, at, top, null) };
      }),
    };
  });
  return { name, constName: specName.replace(/_API$/, '_WEBHOOKS'), collection: endpoints.name, versions, resources, custom, hasCustom: custom.length > 0 };
}
