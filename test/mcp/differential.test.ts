/**
 * The generated MCP server answers exactly what the generated TypeScript client answers. Two identical worlds (the
 * shop example's generated server on 127.0.0.1, memory handlers, one fixed clock) run the same seeded set of calls
 * (`shop-script.ts`): one through the official MCP SDK client, over Streamable HTTP (the Fastify mount, every version)
 * and over stdio (the runnable entry, the default version); the other through the generated client. Every tool of
 * every version is called; the outcomes (data, or status and problem code) must not differ once the values each world
 * draws at random or from the system clock (ids, cursors, webhook secrets and creation times) are numbered in the order
 * they appear.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../../generator/model/project.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { generateInto } from '../server/helpers.ts';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import { overHttp, overStdio, startShop, type World } from './helpers.ts';
import { shopScript, type Earlier, type Step } from './shop-script.ts';

/** What a call came to: its data, or its status and problem code. */
type Outcome = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly status: number; readonly code: string | undefined };

/** A tool's target as the DSL defines it: `orders_cancel` is the transition `cancel` of `orders`. */
interface Target {
  readonly collection: string;
  readonly member: string;
  readonly transition: boolean;
}

let out = '';
let client: typeof ClientModule;
const worlds: World[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  for (const w of worlds) await w.close();
});

beforeAll(async () => {
  out = await generateInto('mcp-differential');
  client = (await import(path.join(out, 'client/index.ts'))) as typeof ClientModule;
});

/** Every tool of `version`, by name, as the DSL defines them (not as the generated tables list them). */
async function targetsOf(version: string): Promise<Map<string, Target>> {
  const at = project(await loadIr(SHOP_API), version);
  const targets = new Map<string, Target>();
  for (const c of at.collections) {
    for (const op of c.operations) targets.set(`${c.name}_${op}`, { collection: c.name, member: op, transition: false });
    for (const t of c.lifecycle?.transitions ?? []) targets.set(`${c.name}_${t.name}`, { collection: c.name, member: t.name, transition: true });
  }
  return targets;
}

/** Runs `steps` through `call`, each step's arguments made from what the same run answered before. */
async function run(steps: readonly Step[], call: (step: Step, args: Record<string, unknown>) => Promise<{ outcome: Outcome; etag: string | null }>) {
  const answers = new Map<string, { outcome: Outcome; etag: string | null }>();
  const earlier: Earlier = {
    value: (label, field) => {
      const answer = answers.get(label)?.outcome;
      if (!answer?.ok) throw new Error(`step ${label} did not succeed: ${JSON.stringify(answer)}`);
      return (answer.data as Record<string, unknown>)[field];
    },
    etag: (label) => answers.get(label)?.etag ?? '',
  };
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const answer = await call(step, step.args(earlier));
    if (step.label) answers.set(step.label, answer);
    outcomes.push(answer.outcome);
  }
  return outcomes;
}

/** A call through the SDK client: the result's structured content, which its text content must repeat. */
async function viaMcp(mcp: Client, step: Step, args: Record<string, unknown>): Promise<{ outcome: Outcome; etag: string | null }> {
  const result = await mcp.callTool({ name: step.tool, arguments: args });
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const content = result.content as { type: string; text: string }[];
  if (structured !== undefined) expect(JSON.parse(content[0]!.text), `${step.tool}: text content`).toEqual(structured);
  if (result.isError) return { outcome: { ok: false, status: structured!['status'] as number, code: structured!['code'] as string | undefined }, etag: null };
  const etag = (result._meta?.['etag'] as string | undefined) ?? null;
  return { outcome: { ok: true, data: structured }, etag };
}

type Method = (...args: unknown[]) => Promise<unknown>;

/** The same call through the generated client. */
async function viaClient(ns: object, target: Target, args: Record<string, unknown>): Promise<{ outcome: Outcome; etag: string | null }> {
  const resource = (ns as Record<string, Record<string, Method>>)[target.collection]!;
  const method = resource[target.member]!.bind(resource);
  const options = args['ifMatch'] === undefined ? {} : { ifMatch: args['ifMatch'] };
  try {
    let data: unknown;
    if (target.transition) data = await method(args['id'], args['body'] ?? {}, options);
    else if (target.member === 'list') data = await method(args);
    else if (target.member === 'get') data = await method(args['id']);
    else if (target.member === 'create') data = await method(args['body']);
    else if (target.member === 'delete') data = await method(args['id'], options);
    else data = await method(args['id'], args['body'], options);
    const etag = typeof data === 'object' && data !== null && !('data' in data) ? client.etagOf(data) : null;
    return { outcome: { ok: true, data }, etag };
  } catch (error) {
    if (!(error instanceof client.ApiError)) throw error;
    return { outcome: { ok: false, status: error.status, code: error.problem?.code }, etag: null };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The outcomes with the values each world draws at random numbered in the order they first appear. */
function numbered(outcomes: readonly Outcome[]): unknown {
  const seen = new Map<string, string>();
  const walk = (value: unknown, key = ''): unknown => {
    // The built-in webhook endpoints read the system clock for `createdAt`.
    if (typeof value === 'string' && (UUID.test(value) || key === 'secret' || key === 'next_cursor' || key === 'createdAt')) {
      if (!seen.has(value)) seen.set(value, `<${key || 'value'} ${seen.size + 1}>`);
      return seen.get(value);
    }
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return outcomes.map((o) => walk(o));
}

/** What a test uses of a generated `mcp/http.ts`. */
interface HttpModule {
  registerShopMcp(app: FastifyInstance, mount: { options: (request: IncomingMessage) => object }): void;
  credentialOf(request: IncomingMessage): object;
}

/**
 * Runs the version's script in two fresh worlds, one through the MCP server over `transport`, one through the
 * generated client, and compares. Over HTTP the endpoint is mounted on the API's own app and calls it over HTTP with
 * the caller's credential; over stdio it runs as a desktop host starts it.
 */
async function compare(version: string, transport: 'http' | 'stdio'): Promise<void> {
  const targets = await targetsOf(version);
  const steps = shopScript(version);
  const http = (await import(path.join(out, 'mcp/http.ts'))) as HttpModule;
  let url = '';
  const mount = (app: FastifyInstance) => http.registerShopMcp(app, { options: (request) => ({ version, baseUrl: url, ...http.credentialOf(request) }) });
  const a = await startShop(out, {}, transport === 'http' ? mount : undefined);
  url = a.url;
  const b = await startShop(out);
  worlds.push(a, b);
  const agent =
    transport === 'http'
      ? await overHttp(`${a.url}/mcp`, { authorization: 'Bearer admin' })
      : (await overStdio(out, { API_BASE_URL: a.url, API_VERSION: version, API_TOKEN: 'admin' })).client;
  closers.push(() => agent.close());
  const listed = (await agent.listTools()).tools.map((t) => t.name).sort();
  expect(listed, 'the tools listed are those the DSL defines').toEqual([...targets.keys()].sort());
  expect(
    listed.filter((name) => !steps.some((s) => s.tool === name)),
    'every tool is called',
  ).toEqual([]);

  const ns = client.createShopClient({ baseUrl: b.url, bearer: 'admin' })[version as 'v1' | 'v2' | 'v3'];
  const viaTools = await run(steps, (step, args) => viaMcp(agent, step, args));
  const viaSdk = await run(steps, (step, args) => viaClient(ns, targets.get(step.tool)!, args));
  const [left, right] = [numbered(viaTools) as unknown[], numbered(viaSdk) as unknown[]];
  const differences = steps.flatMap((s, i) =>
    JSON.stringify(left[i]) === JSON.stringify(right[i]) ? [] : [{ step: i, tool: s.tool, mcp: left[i], client: right[i] }],
  );
  expect(differences).toEqual([]);
  // The seeded set holds refusals too: they must agree as well.
  expect(viaSdk.filter((o) => !o.ok).map((o) => (o.ok ? 0 : o.status))).toEqual(expect.arrayContaining([404, 409]));
}

describe('every tool answers what the generated client answers for the same input', () => {
  it.each(['v1', 'v2', 'v3'])('over Streamable HTTP, %s', { timeout: 60_000 }, (version) => compare(version, 'http'));

  // A process of its own, its TypeScript compiled as it starts.
  it('over stdio, v2, as a desktop host runs it', { timeout: 120_000 }, () => compare('v2', 'stdio'));
});
