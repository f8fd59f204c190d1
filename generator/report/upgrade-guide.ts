/**
 * @module The upgrade guide: for each comparison of two released versions in a report, what a client author
 * changes to move from the one to the other, grouped by client method and webhook event (API-wide changes
 * first), each change with what to do and its before and after values, and the versions' deprecation and
 * sunset dates. Built from the diff engine's findings; nothing is compared again. The Markdown emitter
 * (`UPGRADING.md`) and the HTML report lay it out.
 */
import { OPERATIONS, type OperationName } from '../model/ir.ts';
import { changeValue } from './change-value.ts';
import { headOfLocation } from '../diff/collector.ts';
import { RULES, type RuleName } from '../diff/rules.ts';
import { ADVICE } from './upgrade-advice.ts';
import { LEVELS, type DiffReport, type Finding, type Level, type VersionInfo } from '../diff/types.ts';

/** One change as the guide shows it. */
export interface UpgradeStep {
  readonly level: Level;
  readonly id: string;
  readonly location: string;
  /** What changed, in the finding's words. */
  readonly message: string;
  /** What the client author does about it. */
  readonly todo: string;
  /** Each change's before and after, in words: `name: holder → name`. */
  readonly changes: readonly string[];
}

/** The changes of one client method (`accounts.create`), one webhook event, or of the API as a whole. */
export interface UpgradeTarget {
  readonly kind: 'api' | 'method' | 'event';
  /** `accounts.create`, `account.created`, or `API` for the whole API. */
  readonly name: string;
  /** The routes of a method (`POST /accounts`), `WEBHOOK account.created` of an event. */
  readonly routes: readonly string[];
  readonly steps: readonly UpgradeStep[];
}

/** Moving from one released version to another. */
export interface UpgradeSection {
  readonly from: VersionInfo;
  readonly to: VersionInfo;
  readonly summary: { readonly breaking: number; readonly warning: number; readonly safe: number };
  /** API-wide changes first, then methods (by collection, operations in their order), then events. */
  readonly targets: readonly UpgradeTarget[];
}

/** The advice for a finding: by its rule, on the side that decided it when the rule's sides differ. */
function todoOf(f: Finding): string {
  const side = f.id.startsWith('request-') ? 'request' : f.id.startsWith('response-') ? 'response' : null;
  const rule = (side === null ? f.id : f.id.slice(side.length + 1)) as RuleName;
  const advice = rule in RULES ? ADVICE[rule] : f.message;
  if (typeof advice === 'string') return advice;
  return side === 'response' ? advice.response : advice.request;
}

function stepOf(f: Finding): UpgradeStep {
  return {
    level: f.level,
    id: f.id,
    location: f.location,
    message: f.message,
    todo: todoOf(f),
    changes: f.changes.map((c) => `${c.aspect}: ${changeValue(c.before)} → ${changeValue(c.after)}`),
  };
}

/** Operations in their fixed order, then transitions by name. */
const opRank = (op: string): number => {
  const i = OPERATIONS.indexOf(op as OperationName);
  return i < 0 ? OPERATIONS.length : i;
};

/** The targets of one comparison's findings (`version`: the later version, which client methods name). */
function targetsOf(findings: readonly Finding[], version: string, derived: ReadonlyMap<string, readonly string[]>): UpgradeTarget[] {
  const targets = new Map<string, { kind: UpgradeTarget['kind']; name: string; routes: Set<string>; steps: Finding[] }>();
  const add = (kind: UpgradeTarget['kind'], name: string, route: string | null, f: Finding) => {
    const key = `${kind} ${name}`;
    const target = targets.get(key) ?? { kind, name, routes: new Set<string>(), steps: [] };
    targets.set(key, target);
    if (route !== null) target.routes.add(route);
    if (!target.steps.includes(f)) target.steps.push(f);
  };
  for (const f of findings) {
    const head = headOfLocation(f.location);
    let placed = false;
    f.affects.routes.forEach((route, i) => {
      const client = f.affects.client[i] ?? '';
      if (route.startsWith('WEBHOOK ')) {
        add('event', route.slice('WEBHOOK '.length), route, f);
        placed = true;
        return;
      }
      const method = client.startsWith(`${version}.`) ? client.slice(version.length + 1) : client;
      // A change of one collection, not of the API as a whole (auth, versioning, the version's dates).
      if (method.split('.')[0] !== head) return;
      add('method', method, route, f);
      placed = true;
    });
    if (!placed) add('api', 'API', null, f);
    // A collection's answers are also the payload of its derived events.
    if (placed && f.direction !== 'request') for (const type of derived.get(head) ?? []) add('event', type, `WEBHOOK ${type}`, f);
  }
  const rank = { api: 0, method: 1, event: 2 } as const;
  const order = (t: { kind: UpgradeTarget['kind']; name: string }): [number, string, number, string] => {
    const [collection = '', op = ''] = t.name.split('.');
    return t.kind === 'method' ? [rank.method, collection, opRank(op), op] : [rank[t.kind], t.name, 0, ''];
  };
  const compare = (a: (string | number)[], b: (string | number)[]): number => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  return [...targets.values()]
    .sort((a, b) => compare(order(a), order(b)))
    .map((t) => ({
      kind: t.kind,
      name: t.name,
      routes: [...t.routes].sort(),
      steps: [...t.steps].sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level)).map(stepOf),
    }));
}

/**
 * The guide of `report`: one section per comparison of two released versions (a `--base` report compares
 * none, so it has none), in the report's order.
 */
export function buildUpgradeGuide(report: DiffReport): UpgradeSection[] {
  const byName = new Map(report.versions.map((v) => [v.name, v]));
  const sections: UpgradeSection[] = [];
  for (const c of report.comparisons) {
    const from = byName.get(c.from);
    const to = byName.get(c.to);
    if (!from?.released || !to?.released || c.version !== c.to || from === to) continue;
    // The events the later version delivers, by the collection whose resource they carry.
    const derived = new Map<string, string[]>();
    for (const e of report.events ?? []) if (e.version === c.to) derived.set(e.collection, [...(derived.get(e.collection) ?? []), e.type]);
    const findings = report.findings.filter((f) => f.version === c.version);
    const count = (l: Level) => findings.filter((f) => f.level === l).length;
    sections.push({
      from,
      to,
      summary: { breaking: count('breaking'), warning: count('warning'), safe: count('safe') },
      targets: targetsOf(findings, c.to, derived),
    });
  }
  return sections;
}
