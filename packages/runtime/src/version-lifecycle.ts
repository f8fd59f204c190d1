/**
 * A version's lifecycle on every answer of its routes: `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and
 * `Link: <docs>; rel="deprecation"`, `rel="sunset"`; 410 `version_sunset` from the sunset on, and 410
 * `version_brownout` with `Retry-After` inside a brownout window. The server's clock (`options.now`) decides.
 */
import type { FastifyReply } from 'fastify';
import { problem, send } from './problems.js';
import type { MountedSpec, BrownoutSpec, VersionSpec } from './spec.js';

/** What a 410 recommends: the newest released version that is not itself past its sunset, if any. */
export function successorOf(spec: MountedSpec, now: number, except?: string): string | null {
  for (let i = spec.versions.length - 1; i >= 0; i--) {
    const v = spec.versions[i]!;
    if (v.name === except) continue;
    if (v.released && (v.sunsetAt === null || now < v.sunsetAt)) return v.name;
  }
  return null;
}

/** The brownout window `now` falls in, or null (windows are few and in time order). */
export function brownoutAt(windows: readonly BrownoutSpec[], now: number): BrownoutSpec | null {
  for (const w of windows) {
    if (now < w.start) return null;
    if (now < w.end) return w;
  }
  return null;
}

/** The instant a `Deprecation` value (`@<unix seconds>`) names, in ms. */
export const deprecatedAt = (deprecation: string | null): number | null => (deprecation === null ? null : Number(deprecation.slice(1)) * 1000);

/**
 * Sets `version`'s lifecycle headers on an answer and refuses it (410) past the sunset or inside a brownout:
 * the reply once answered, else undefined. Null when the version has no lifecycle to show.
 */
export type Lifecycle = (reply: FastifyReply) => FastifyReply | undefined;

/** The lifecycle of `version`, read against `now` (ms), or null when it has none. */
export function createLifecycle(spec: MountedSpec, version: VersionSpec, now: () => number): Lifecycle | null {
  const { name, deprecation, sunset, sunsetAt } = version;
  const link = version.link ?? null;
  const brownouts = version.brownouts ?? [];
  if (deprecation === null && sunset === null && link === null && brownouts.length === 0) return null;
  const sunsetDay = sunsetAt === null ? null : new Date(sunsetAt).toISOString().slice(0, 10);
  const use = (at: number) => {
    const next = successorOf(spec, at, name);
    return next === null ? '' : `; use ${next}`;
  };
  return (reply) => {
    if (deprecation !== null) reply.header('deprecation', deprecation);
    if (sunset !== null) reply.header('sunset', sunset);
    if (link !== null) reply.header('link', link);
    if (sunsetAt === null && brownouts.length === 0) return undefined;
    const at = now();
    if (sunsetAt !== null && at >= sunsetAt) return send(reply, problem(410, 'version_sunset', `${name} was retired on ${sunset}${use(at)}.`));
    const window = brownouts.length === 0 ? null : brownoutAt(brownouts, at);
    if (window === null) return undefined;
    // Whole seconds, rounded up: a client that waits that long finds the window over.
    reply.header('retry-after', Math.max(1, Math.ceil((window.end - at) / 1000)));
    const until = new Date(window.end).toISOString();
    const retired = sunsetDay === null ? 'before it is retired' : `before its sunset on ${sunsetDay}`;
    return send(reply, problem(410, 'version_brownout', `${name} is deprecated and browned out until ${until}, a planned outage ${retired}${use(at)}.`));
  };
}
