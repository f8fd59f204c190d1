/**
 * @module Turns classified changes into findings: applies the rule table, computes the affected routes and
 * client methods on the sides that decided the level, merges changes of one rule at one location into one
 * finding (keeping every change's before and after), fingerprints it, and sorts the result.
 */
import { hash } from 'node:crypto';
import { OPERATION_FACTS, OPERATIONS, type ApiAt, type CollectionAt, type OperationName, type SourceRef } from '../model/ir.ts';
import { toolName } from '../model/mcp-tools.ts';
import { RULES, verdictOf, type RuleName } from './rules.ts';
import { LEVELS, type Change, type DiffOptions, type Finding, type Hint } from './types.ts';

/** An operation, a lifecycle transition as `:<name>` (its custom method), an event as `@<type>`, a file's download as `/<field>`. */
export type RouteOp = OperationName | `:${string}` | `@${string}` | `/${string}`;

/** The route op of the download of a file field. */
export const downloadOp = (field: string): RouteOp => `/${field}`;

/** The route op of a webhook event type (`@order.created`): the API sends it to subscribers. */
export const eventOp = (type: string): RouteOp => `@${type}`;

/** The route op of a transition. */
export const transitionOp = (name: string): RouteOp => `:${name}`;

/** One route a change touches, with the generated client method and the MCP tool that call it. */
export interface Touch {
  readonly route: string;
  readonly client: string;
  /** The MCP tool (`orders_create`), or null: a webhook event. */
  readonly mcp: string | null;
  readonly path: string;
  readonly op: RouteOp;
}

/** Routes and client methods, per side, that a change flows through. */
export interface Touches {
  readonly request: readonly Touch[];
  readonly response: readonly Touch[];
}

/** The touches of operations and transitions `ops` of collection `c` as version `api` serves it. */
export function touchesOf(api: ApiAt, c: CollectionAt, ops: readonly RouteOp[]): Touch[] {
  const prefix = api.versioning.in === 'path' ? `/${api.version.name}` : '';
  const tool = (member: string): string => toolName(c.name, member);
  return ops.map((op) => {
    const base = `${prefix}/${c.path}`;
    if (op.startsWith('@'))
      return { route: `WEBHOOK ${op.slice(1)}`, client: `${api.version.name}.WebhookEvent`, mcp: null, path: `webhooks/${op.slice(1)}`, op };
    if (op.startsWith(':'))
      return { route: `POST ${base}/{id}${op}`, client: `${api.version.name}.${c.name}.${op.slice(1)}`, mcp: tool(op.slice(1)), path: base, op };
    if (op.startsWith('/')) return { route: `GET ${base}/{id}${op}`, client: `${api.version.name}.${c.name}.download`, mcp: null, path: base, op };
    const { method, target } = OPERATION_FACTS[op as OperationName];
    const member = target === 'item';
    return { route: `${method} ${base}${member ? '/{id}' : ''}`, client: `${api.version.name}.${c.name}.${op}`, mcp: tool(op), path: base, op };
  });
}

/** The collection a finding's location starts with: `orders` of `orders.lines[].sku` and of `orders:cancel.reason`. */
export function headOfLocation(location: string): string {
  return location.split(/[.:]/)[0]!.replace(/\[\]$/, '');
}

/** Touches on both sides. */
export function both(touches: readonly Touch[]): Touches {
  return { request: touches, response: touches };
}

/** JSON with sorted keys: equal values give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * A stable hash of what makes a finding distinct: its id, the version it shows up in, its location and
 * what changed there (each change's aspect, before and after, in a fixed order). Two findings share a
 * fingerprint only when they report the same change to the same version.
 */
export function fingerprintOf(id: string, version: string, location: string, changes: readonly Change[]): string {
  const what = changes.map(stableJson).sort().join('\u0001');
  return hash('sha256', [id, version, location, what].join('\u0000'), 'hex').slice(0, 16);
}

interface Draft {
  readonly rule: RuleName;
  readonly location: string;
  readonly messages: string[];
  readonly changes: Change[];
  /** The changes as stable JSON, to keep each once. */
  readonly seen: Set<string>;
  readonly request: Map<string, Touch>;
  readonly response: Map<string, Touch>;
  loc?: SourceRef;
  hint?: Hint;
}

/** Operations in their fixed order, then transitions by name. */
const rankOf = (op: RouteOp): number => (op.startsWith(':') ? OPERATIONS.length : OPERATIONS.indexOf(op as OperationName));

function sortTouches(touches: Iterable<Touch>): Touch[] {
  return [...touches].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : rankOf(a.op) - rankOf(b.op) || (a.op < b.op ? -1 : a.op > b.op ? 1 : 0)));
}

/** Collects the changes of one comparison and returns them as findings. */
export class FindingCollector {
  private readonly drafts = new Map<string, Draft>();

  /** `tools`: the API has an MCP server, whose tools findings name (see {@link DiffOptions.mcp}). */
  constructor(
    private readonly version: string,
    private readonly tools = true,
  ) {}

  /**
   * Records a change of `rule` at `location`: what changed (`change`, with before and after values) and
   * where the builder call that made it is (`loc`). Changes on no side the rule knows are dropped.
   */
  add(rule: RuleName, location: string, message: string, touches: Touches, loc?: SourceRef, change?: Change, hint?: Hint): void {
    // A change that flows nowhere (no route carries it on either side) is no finding and adds nothing to one.
    if (touches.request.length === 0 && touches.response.length === 0) return;
    const key = `${rule}\u0000${location}`;
    let draft = this.drafts.get(key);
    if (!draft) {
      draft = { rule, location, messages: [], changes: [], seen: new Set(), request: new Map(), response: new Map(), ...(loc ? { loc } : {}) };
      this.drafts.set(key, draft);
    }
    if (!draft.messages.includes(message)) draft.messages.push(message);
    const what = change ?? { aspect: rule };
    const text = stableJson(what);
    if (!draft.seen.has(text)) {
      draft.seen.add(text);
      draft.changes.push(what);
    }
    if (hint && !draft.hint) draft.hint = hint;
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
      // Only the sides that decided the level: a request-only break lists no GET route.
      const sides = [...(verdict.request ? request : []), ...(verdict.response ? response : [])];
      const touched = sortTouches(new Map(sides.map((t) => [t.route, t])).values());
      out.push({
        id: verdict.id,
        level: verdict.level,
        version: this.version,
        location: d.location,
        direction: verdict.request && verdict.response ? 'both' : verdict.request ? 'request' : 'response',
        message: d.messages.join('; '),
        affects: {
          routes: touched.map((t) => t.route),
          client: touched.map((t) => t.client),
          mcp: this.tools ? touched.flatMap((t) => (t.mcp === null ? [] : [t.mcp])) : [],
        },
        changes: d.changes,
        fingerprint: fingerprintOf(verdict.id, this.version, d.location, d.changes),
        ...(d.loc ? { loc: d.loc } : {}),
        ...(d.hint ? { hint: d.hint } : {}),
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
