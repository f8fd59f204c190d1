/**
 * @module Turns classified changes into findings: applies the rule table, computes the affected routes and
 * client methods, merges changes of one rule at one location into one finding (so id + location, and
 * hence the fingerprint, is unique per version), and sorts the result.
 */
import { createHash } from 'node:crypto';
import { OPERATIONS, type ApiAt, type CollectionAt, type OperationName, type SourceRef } from '../model/ir.ts';
import { RULES, verdictOf, type RuleName } from './rules.ts';
import { LEVELS, type Finding } from './types.ts';

/** One route a change touches, with the generated client method that calls it. */
export interface Touch {
  readonly route: string;
  readonly client: string;
  readonly path: string;
  readonly op: OperationName;
}

/** Routes and client methods, per side, that a change flows through. */
export interface Touches {
  readonly request: readonly Touch[];
  readonly response: readonly Touch[];
}

const METHOD: { readonly [K in OperationName]: readonly [string, boolean] } = {
  list: ['GET', false],
  get: ['GET', true],
  create: ['POST', false],
  replace: ['PUT', true],
  update: ['PATCH', true],
  delete: ['DELETE', true],
};

/** The touches of operations `ops` of collection `c` as version `api` serves it. */
export function touchesOf(api: ApiAt, c: CollectionAt, ops: readonly OperationName[]): Touch[] {
  const prefix = api.versioning.in === 'path' ? `/${api.version.name}` : '';
  return ops.map((op) => {
    const [method, member] = METHOD[op];
    const path = `${prefix}/${c.path}${member ? '/{id}' : ''}`;
    return { route: `${method} ${path}`, client: `${api.version.name}.${c.name}.${op}`, path: `${prefix}/${c.path}`, op };
  });
}

/** Touches on both sides. */
export function both(touches: readonly Touch[]): Touches {
  return { request: touches, response: touches };
}

/** A stable hash of a finding's id and location. */
export function fingerprintOf(id: string, location: string): string {
  return createHash('sha256').update(`${id}\u0000${location}`).digest('hex').slice(0, 16);
}

interface Draft {
  readonly rule: RuleName;
  readonly location: string;
  readonly messages: string[];
  readonly request: Map<string, Touch>;
  readonly response: Map<string, Touch>;
  loc?: SourceRef;
}

function sortTouches(touches: Iterable<Touch>): Touch[] {
  return [...touches].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : OPERATIONS.indexOf(a.op) - OPERATIONS.indexOf(b.op)));
}

/** Collects the changes of one comparison and returns them as findings. */
export class FindingCollector {
  private readonly drafts = new Map<string, Draft>();

  constructor(private readonly version: string) {}

  /** Records a change of `rule` at `location`. Changes on no side the rule knows are dropped. */
  add(rule: RuleName, location: string, message: string, touches: Touches, loc?: SourceRef): void {
    const key = `${rule}\u0000${location}`;
    let draft = this.drafts.get(key);
    if (!draft) {
      draft = { rule, location, messages: [], request: new Map(), response: new Map(), ...(loc ? { loc } : {}) };
      this.drafts.set(key, draft);
    }
    if (!draft.messages.includes(message)) draft.messages.push(message);
    const v = RULES[rule] as { request?: unknown; response?: unknown };
    if (v.request !== undefined) for (const t of touches.request) draft.request.set(t.route, t);
    if (v.response !== undefined) for (const t of touches.response) draft.response.set(t.route, t);
    draft.loc ??= loc;
  }

  /** The findings, worst first, then by location and id. */
  findings(): Finding[] {
    const out: Finding[] = [];
    for (const d of this.drafts.values()) {
      const request = sortTouches(d.request.values());
      const response = sortTouches(d.response.values());
      const verdict = verdictOf(d.rule, { request: request.map((t) => t.op), response: response.map((t) => t.op) });
      if (!verdict) continue;
      const touched = sortTouches(new Map([...request, ...response].map((t) => [t.route, t])).values());
      out.push({
        id: verdict.id,
        level: verdict.level,
        version: this.version,
        location: d.location,
        direction: verdict.request && verdict.response ? 'both' : verdict.request ? 'request' : 'response',
        message: d.messages.join('; '),
        affects: { routes: touched.map((t) => t.route), client: touched.map((t) => t.client) },
        fingerprint: fingerprintOf(verdict.id, d.location),
        ...(d.loc ? { loc: d.loc } : {}),
      });
    }
    return sortFindings(out);
  }
}

/** Sorts the findings of one comparison worst first, then by location and id. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...findings].sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || cmp(a.location, b.location) || cmp(a.id, b.id));
}
