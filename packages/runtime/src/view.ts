/**
 * Field masks (`?fields=id,title`): an answer that shows only some fields is written and checked by the
 * response schema picked down to them, migrated down by the steps of those fields only (a step of a field not
 * shown never runs). A route keeps the presenters of the masks it was asked for, a bounded number of them.
 */
import { createPresenter, createTextPresenter } from './answer.js';
import { once } from './deferred.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import type { Mount } from './state.js';

/** The presenters of one mask: to JSON text (an answer sent as it is), or to a value (an answer expanded first). */
export interface View {
  readonly text: ReturnType<typeof createTextPresenter>;
  /** Built on first use: most routes never expand. */
  readonly value: () => ReturnType<typeof createPresenter>;
}

/** How many masks a route keeps the presenters of; past it, a mask's presenters are built for its request only. */
const KEPT = 64;

/** The route as a mask shows it: its response schema picked to `names` (this version's), its down steps of those. */
function maskedRoute(route: RouteSpec, names: readonly string[]): RouteSpec {
  const keep = new Set(names);
  const response = route.schemas.response.pick(Object.fromEntries(names.map((n) => [n, true])) as Record<string, true>);
  const down = Object.fromEntries(Object.entries(route.down).filter(([name]) => keep.has(name)));
  return { ...route, schemas: { ...route.schemas, response }, down };
}

/**
 * The views of `route` in `version`: `null` (every field) or the names a mask shows (the id among them, in the
 * version's names). The handler (`source`) is blamed for what breaks the schema.
 */
export function createViews(m: Mount, version: VersionSpec, route: RouteSpec, source: string): (names: readonly string[] | null) => View {
  const viewOf = (r: RouteSpec): View => ({ text: createTextPresenter(m, version, r, source), value: once(() => createPresenter(m, version, r, source)) });
  const whole = viewOf(route);
  const order = Object.keys(route.schemas.response.shape);
  const kept = new Map<string, View>();
  return (names) => {
    if (names === null) return whole;
    // In the schema's order: one mask, one key, however it was written.
    const shown = order.filter((n) => names.includes(n));
    if (shown.length === order.length) return whole;
    const key = shown.join(',');
    const known = kept.get(key);
    if (known !== undefined) return known;
    const view = viewOf(maskedRoute(route, shown));
    if (kept.size < KEPT) kept.set(key, view);
    return view;
  };
}
