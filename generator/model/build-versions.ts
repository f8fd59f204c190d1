/**
 * @module The versions as the DSL declares them: their names and dates (RG101-RG105, RG107), and how they
 * are operated: brownout windows and the `docs` page of each
 * version (RG380-RG383), how clients select a version and which one a request without the header gets
 * (`versioning`, `default`: RG106, RG384, RG385), and date-named versions in date order (RG386). Each
 * mistake is reported at the property that holds it.
 */
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import type { BrownoutIR, SourceRef, VersionIR, VersioningIR } from './ir.ts';
import { isIsoDate } from './values.ts';
import { HEADER_NAME } from './build-auth.ts';

const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// Version names become folder and file names next to these generated ones.
const RESERVED_VERSION_NAMES = new Set([
  'server',
  'client',
  'openapi',
  'mcp',
  'runtime',
  'collections',
  'zod-helpers',
  'changes.md',
  'index',
  'types',
  'routes',
]);

/** `versions` as written, after its shape was checked; the values themselves are still unchecked. */
export type WrittenVersions = Readonly<
  Record<
    string,
    | {
        readonly released?: unknown;
        readonly deprecated?: unknown;
        readonly sunset?: unknown;
        readonly brownouts?: readonly unknown[];
        readonly docs?: unknown;
      }
    | undefined
  >
>;

/** An ISO 8601 instant with an offset: `2026-06-01T10:00:00Z`, `2026-06-01T12:00:00.5+02:00`. */
const INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** The instant `text` names in ms, or NaN when it is not an ISO 8601 instant with an offset. */
export function instantMs(text: string): number {
  const m = INSTANT.exec(text);
  return m && isIsoDate(m[1]!) ? Date.parse(text) : NaN;
}

/** The first instant of a `YYYY-MM-DD` day (UTC), as the server's Deprecation and Sunset headers read it. */
export const dayMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** A version's dates as written, before they are checked. */
interface WrittenDates {
  readonly deprecated?: string | undefined;
  readonly sunset?: string | undefined;
}

/**
 * The brownout windows of version `name` (those that are valid, in time order), each checked: two instants,
 * start before end (RG381), inside `[deprecated, sunset)` (RG380), none overlapping another (RG382).
 */
export function brownoutsOf(name: string, written: readonly unknown[] | undefined, dates: WrittenDates, d: DiagnosticBag, apiRef: SourceRef): BrownoutIR[] {
  const valid: { window: BrownoutIR; start: number; end: number; index: number }[] = [];
  (written ?? []).forEach((entry, index) => {
    const path = ['versions', name, 'brownouts', String(index)];
    const w = (typeof entry === 'object' && entry !== null ? entry : {}) as { start?: unknown; end?: unknown };
    // A missing start or end was reported with the option's shape (RG175).
    if (w.start === undefined || w.end === undefined) return;
    const ms = { start: typeof w.start === 'string' ? instantMs(w.start) : NaN, end: typeof w.end === 'string' ? instantMs(w.end) : NaN };
    let ok = true;
    for (const key of ['start', 'end'] as const)
      if (Number.isNaN(ms[key])) {
        ok = false;
        d.error(
          'RG381',
          `version ${name}: brownouts[${index}].${key} '${String(w[key])}' is not an ISO 8601 instant with an offset; write it like '2026-06-01T10:00:00Z'.`,
          atPath(apiRef, [...path, key]),
        );
      }
    if (!ok) return;
    if (ms.end <= ms.start) {
      d.error(
        'RG381',
        `version ${name}: brownouts[${index}] ends (${String(w.end)}) before it starts (${String(w.start)}); swap start and end.`,
        atPath(apiRef, path),
      );
      return;
    }
    const { deprecated, sunset } = dates;
    if (deprecated === undefined)
      d.error(
        'RG380',
        `version ${name}: brownouts[${index}] is set, but ${name} is not deprecated; a brownout warns the clients of a deprecated version, so add deprecated: 'YYYY-MM-DD' (on or before the window) or remove the brownout.`,
        atPath(apiRef, path),
      );
    else if (isIsoDate(deprecated) && ms.start < dayMs(deprecated))
      d.error(
        'RG380',
        `version ${name}: brownouts[${index}] starts (${String(w.start)}) before the version is deprecated (${deprecated}); brownouts lie within [deprecated, sunset), so move it or deprecate earlier.`,
        atPath(apiRef, [...path, 'start']),
      );
    else if (sunset !== undefined && isIsoDate(sunset) && ms.end > dayMs(sunset))
      d.error(
        'RG380',
        `version ${name}: brownouts[${index}] ends (${String(w.end)}) after the sunset (${sunset}), when the version answers 410 for good; brownouts lie within [deprecated, sunset), so end it by ${sunset}T00:00:00Z.`,
        atPath(apiRef, [...path, 'end']),
      );
    else valid.push({ window: { start: w.start as string, end: w.end as string }, start: ms.start, end: ms.end, index });
  });
  valid.sort((a, b) => a.start - b.start);
  const kept: typeof valid = [];
  for (const w of valid) {
    const before = kept[kept.length - 1];
    if (before && w.start < before.end) {
      const [first, second] = before.index < w.index ? [before, w] : [w, before];
      d.error(
        'RG382',
        `version ${name}: brownouts[${second.index}] (${second.window.start} to ${second.window.end}) overlaps brownouts[${first.index}] (${first.window.start} to ${first.window.end}); join them into one window or move one.`,
        atPath(apiRef, ['versions', name, 'brownouts', String(second.index)]),
      );
      continue;
    }
    kept.push(w);
  }
  return kept.map((w) => w.window);
}

/** The `docs` URL of version `name`, normalized; RG383 when it is not an absolute https URL without credentials. */
export function docsOf(name: string, value: unknown, d: DiagnosticBag, apiRef: SourceRef): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    // Not a URL at all: reported below with the rule.
  }
  const problem =
    url === undefined
      ? 'it is not an absolute URL'
      : url.protocol !== 'https:'
        ? `it must use https (got ${url.protocol.slice(0, -1)}): clients follow it from the Link header`
        : url.username !== '' || url.password !== ''
          ? 'it must not carry a user name or password'
          : null;
  if (problem === null && url) return url.href;
  d.error(
    'RG383',
    `version ${name}: docs '${String(value)}' is not a page clients can be sent to: ${problem}; write it like 'https://docs.example.com/upgrade/${name}'.`,
    atPath(apiRef, ['versions', name, 'docs']),
  );
  return undefined;
}

/** `versioning` as written, after its shape was checked. */
export interface WrittenVersioning {
  readonly in?: unknown;
  readonly header?: unknown;
  readonly default?: unknown;
}

/**
 * How clients select a version (RG106), with the version a request without the header gets: `'latest'` is
 * the newest released version when the API is generated. RG384 for a default that names no released version,
 * RG385 for a default with path versioning (the path always names the version).
 */
export function versioningOf(written: WrittenVersioning | undefined, versions: readonly VersionIR[], d: DiagnosticBag, apiRef: SourceRef): VersioningIR {
  const def = written ?? { in: 'path' };
  const at = (...path: string[]) => atPath(apiRef, ['versioning', ...path]);
  if (def.in !== 'header') {
    if (def.in !== 'path') d.error('RG106', `versioning.in must be 'path' or 'header' (got '${String(def.in)}').`, at());
    else if (def.default !== undefined)
      d.error(
        'RG385',
        `versioning.default applies to header versioning only: with path versioning the path names the version of every request (/${versions[0]?.name ?? 'v1'}/...); remove default, or select versions with a header: versioning: { in: 'header', header: 'Api-Version', default: 'latest' }.`,
        at('default'),
      );
    return { in: 'path' };
  }
  const header = def.header ?? 'Api-Version';
  if (typeof header !== 'string' || !HEADER_NAME.test(header)) d.error('RG106', `versioning: '${String(header)}' is not a valid HTTP header name.`, at());
  const chosen = defaultOf(def.default, versions, d, at('default'));
  return { in: 'header', header: String(header), ...(chosen !== undefined ? { default: chosen } : {}) };
}

/** The version `default` names, or undefined (none, or RG384). */
function defaultOf(value: unknown, versions: readonly VersionIR[], d: DiagnosticBag, ref: SourceRef): string | undefined {
  if (value === undefined) return undefined;
  const released = versions.filter((v) => v.released !== undefined);
  const names = released.map((v) => v.name).join(', ') || 'none yet';
  if (value === 'latest') {
    const newest = released[released.length - 1];
    if (newest) return newest.name;
    d.error(
      'RG384',
      `versioning.default 'latest' is the newest released version, and no version is released yet; release one (released: 'YYYY-MM-DD') or remove default.`,
      ref,
    );
    return undefined;
  }
  const version = typeof value === 'string' ? versions.find((v) => v.name === value) : undefined;
  if (version?.released !== undefined) return version.name;
  const why = version
    ? `${version.name} is not released, and a request without the header must not get a version that may still change`
    : `it is neither 'latest' nor a version of the API`;
  d.error('RG384', `versioning.default '${String(value)}': ${why}; use 'latest' or a released version (${names}).`, ref);
  return undefined;
}

/**
 * With header versioning and every version named by a date (`2025-01-15`), a header that is a date resolves
 * to the newest released version on or before it: the versions must be declared in date order (RG386).
 */
export function checkDateOrder(versions: readonly VersionIR[], versioning: VersioningIR, d: DiagnosticBag, apiRef: SourceRef): void {
  if (versioning.in !== 'header' || !versions.every((v) => isIsoDate(v.name))) return;
  versions.forEach((v, i) => {
    const before = versions[i - 1];
    if (before && v.name <= before.name)
      d.error(
        'RG386',
        `version ${v.name} is declared after ${before.name}: versions named by dates resolve a date sent in the ${versioning.header} header to the newest version on or before it, so declare them oldest first.`,
        atPath(apiRef, ['versions', v.name]),
      );
  });
}

/** A date as text; a value of another kind keeps its text so that RG103 names it. */
const asText = (x: unknown): string | undefined => (x === undefined ? undefined : typeof x === 'string' ? x : String(x));

/**
 * The versions as declared, in order: names that can become folder names (RG102, RG107), real dates
 * (RG103) in order (RG104), released in order (RG105), with their brownouts and docs pages; RG101 when there
 * are none and `reportEmpty`.
 */
export function versionsOf(written: WrittenVersions | undefined, d: DiagnosticBag, apiRef: SourceRef, reportEmpty: boolean): VersionIR[] {
  const entries = Object.entries(written ?? {}).map(
    ([name, v]) =>
      [name, { released: asText(v?.released), deprecated: asText(v?.deprecated), sunset: asText(v?.sunset), brownouts: v?.brownouts, docs: v?.docs }] as const,
  );
  if (entries.length === 0 && reportEmpty)
    d.error('RG101', `defineApi: versions is empty; declare at least one, e.g. versions: { v1: {} }.`, atPath(apiRef, ['versions']));
  let seenUnreleased: string | undefined;
  return entries.map(([name, v], index) => {
    const ref = atPath(apiRef, ['versions', name]);
    if (!VERSION_NAME.test(name))
      d.error('RG102', `version "${name}" is not a valid version name; use letters, digits, '.', '_' or '-' (like v1 or 2026-01).`, ref);
    else if (RESERVED_VERSION_NAMES.has(name.toLowerCase()))
      d.error(
        'RG107',
        `version "${name}" would collide with generated files of the same name (${[...RESERVED_VERSION_NAMES].join(', ')} are taken); call it v1, v2, ... or by date.`,
        ref,
      );
    for (const key of ['released', 'deprecated', 'sunset'] as const) {
      const date = v[key];
      if (date !== undefined && !isIsoDate(date))
        d.error('RG103', `version ${name}: ${key} '${date}' is not a real date in YYYY-MM-DD form.`, atPath(apiRef, ['versions', name, key]));
    }
    const order = [
      ['released', v.released],
      ['deprecated', v.deprecated],
      ['sunset', v.sunset],
    ] as const;
    for (let i = 0; i < order.length; i++)
      for (let j = i + 1; j < order.length; j++) {
        const [a, da] = order[i]!;
        const [b, db] = order[j]!;
        if (da && db && isIsoDate(da) && isIsoDate(db) && db < da)
          d.error(
            'RG104',
            `version ${name}: ${b} (${db}) comes before ${a} (${da}); a version is released, then deprecated, then sunset.`,
            atPath(apiRef, ['versions', name, b]),
          );
      }
    if ((v.deprecated || v.sunset) && !v.released)
      d.error('RG104', `version ${name} has a deprecated or sunset date but no released date; add released: 'YYYY-MM-DD'.`, ref);
    if (!v.released) seenUnreleased ??= name;
    else if (seenUnreleased)
      d.error(
        'RG105',
        `version ${name} is released but the earlier version ${seenUnreleased} is not; versions are released in order, so release ${seenUnreleased} first or reorder them.`,
        ref,
      );
    const brownouts = brownoutsOf(name, v.brownouts, v, d, apiRef);
    const docs = docsOf(name, v.docs, d, apiRef);
    return {
      kind: 'version',
      name,
      index,
      ...(v.released ? { released: v.released } : {}),
      ...(v.deprecated ? { deprecated: v.deprecated } : {}),
      ...(v.sunset ? { sunset: v.sunset } : {}),
      ...(brownouts.length > 0 ? { brownouts } : {}),
      ...(docs !== undefined ? { docs } : {}),
    };
  });
}
