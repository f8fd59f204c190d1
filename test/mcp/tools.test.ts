/**
 * The tools every example's MCP server lists, through the official SDK client (which checks `tools/list` against the
 * protocol's schema): one per operation and transition, named `<collection>_<operation>`; every input and output schema
 * compiles as JSON Schema 2020-12 (ajv, strict); descriptions come from the DSL; and the hints hold the table this test
 * derives from the DSL on its own: reads are read-only, a create is idempotent when it takes an `Idempotency-Key` (as
 * the version's OpenAPI document says), replace, update and delete are destructive and idempotent, a transition is
 * destructive when it leads into a state no transition leaves and idempotent when it cannot start from where it leads.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiAt, CollectionAt } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { importMcp, inMemory } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;
const HEADER_API = new URL('../../examples/header-versioning/api.ts', import.meta.url).pathname;

/** The hints of a tool, as the table of this test expects them. */
interface Hints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean): Hints => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
  openWorldHint: false,
});

/** Whether the version's OpenAPI document gives the create operation of `c` an `Idempotency-Key` parameter. */
function createTakesKey(out: string, at: ApiAt, c: CollectionAt): boolean {
  const doc = JSON.parse(readFileSync(path.join(out, `openapi/${at.version.name}.json`), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>>;
  };
  const base = `${at.versioning.in === 'path' ? `/${at.version.name}` : ''}/${c.path}`;
  return (doc.paths[base]?.['post']?.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
}

/** The table: every tool of version `at`, by name, with the hints the DSL and the contract give it. */
function expectedTools(out: string, at: ApiAt): Map<string, Hints> {
  const table = new Map<string, Hints>();
  for (const c of at.collections) {
    for (const op of c.operations) {
      const expected =
        op === 'list' || op === 'get' ? hints(true, false, true) : op === 'create' ? hints(false, false, createTakesKey(out, at, c)) : hints(false, true, true);
      table.set(`${c.name}_${op}`, expected);
    }
    const transitions = c.lifecycle?.transitions ?? [];
    for (const t of transitions) {
      const final = !transitions.some((other) => other.from.includes(t.to));
      table.set(`${c.name}_${t.name}`, hints(false, final, !t.from.includes(t.to)));
    }
  }
  return table;
}

/** A strict JSON Schema 2020-12 compiler, with the formats the schemas name. */
function compiler(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv;
}

const EXAMPLES = [
  ['shop', SHOP_API],
  ['ledger', LEDGER_API],
  ['header-versioning', HEADER_API],
] as const;

describe.each(EXAMPLES)("the %s example's MCP servers", (_name, apiPath) => {
  it('list one tool per operation and transition of each version, with the hints of the table and schemas that compile', async () => {
    const out = sharedOutput(apiPath)!;
    const ir = await loadIr(apiPath);
    const mcp = await importMcp(out);
    const ajv = compiler();
    // Tools share most schemas (a resource is what get, create, update and every transition answer): each once.
    const schemas = new Set<string>();
    for (const v of ir.versions) {
      const at = project(ir, v.name);
      const agent = await inMemory(mcp, { version: v.name, baseUrl: 'http://127.0.0.1:9' });
      const { tools } = await agent.listTools();
      await agent.close();
      const table = expectedTools(out, at);
      expect(tools.map((t) => t.name).sort(), v.name).toEqual([...table.keys()].sort());
      for (const tool of tools) {
        expect(tool.annotations, `${v.name} ${tool.name}`).toEqual({ title: tool.title, ...table.get(tool.name) });
        expect(tool.name).toMatch(/^[A-Za-z0-9_]{1,64}$/);
        expect(tool.description?.length, tool.name).toBeGreaterThan(10);
        schemas.add(JSON.stringify(tool.inputSchema));
        if (tool.outputSchema) schemas.add(JSON.stringify(tool.outputSchema));
      }
    }
    for (const schema of schemas) expect(() => ajv.compile(JSON.parse(schema) as object), schema.slice(0, 200)).not.toThrow();
    expect(schemas.size).toBeGreaterThan(10);
  });
});

/** A tool of `tools` by name. */
const named = (tools: readonly Tool[], name: string): Tool => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};

describe("the shop example's tools", () => {
  it('describe themselves in the words of the DSL, and take what the contract says', async () => {
    const mcp = await importMcp(sharedOutput(SHOP_API)!);
    const agent = await inMemory(mcp, { version: 'v3', baseUrl: 'http://127.0.0.1:9' });
    const { tools } = await agent.listTools();
    await agent.close();
    // The collection's and the transition's own descriptions; scopes; the lifecycle's facts.
    expect(named(tools, 'orders_pay').description).toContain('The customer paid for the order.');
    expect(named(tools, 'orders_pay').description).toContain('An order of one product by one customer.');
    expect(named(tools, 'orders_cancel').description).toMatch(/to `cancelled`, a final state.*Needs the scope orders:cancel\./);
    // A list takes cursor, limit (with the collection's bounds), the filters and the sort; never a mask or an
    // expansion, which would answer other than the output schema says.
    const list = named(tools, 'orders_list').inputSchema as unknown as { properties: Record<string, { maximum?: number }>; additionalProperties: boolean };
    expect(Object.keys(list.properties)).toEqual(['limit', 'cursor', 'customer_id', 'total', 'status', 'createdAt', 'sort']);
    expect(list.properties['limit']!.maximum).toBe(100);
    expect(list.additionalProperties).toBe(false);
    // Coupons need If-Match on every write: their write tools require ifMatch; reads do not take it.
    for (const name of ['coupons_replace', 'coupons_update', 'coupons_delete'])
      expect((named(tools, name).inputSchema as { required: string[] }).required, name).toContain('ifMatch');
    expect(Object.keys((named(tools, 'coupons_get').inputSchema as { properties: object }).properties)).toEqual(['id']);
    // A create takes an idempotency key; a transition without input has no body.
    expect(Object.keys((named(tools, 'orders_create').inputSchema as { properties: object }).properties)).toEqual(['idempotencyKey', 'body']);
    expect(Object.keys((named(tools, 'orders_refund').inputSchema as { properties: object }).properties)).toEqual(['id', 'idempotencyKey', 'ifMatch']);
    // A delete answers nothing: no output schema. The others admit their data, or the failure a result with isError carries.
    expect(named(tools, 'orders_delete').outputSchema).toBeUndefined();
    const output = named(tools, 'orders_get').outputSchema as unknown as { anyOf: { required: string[] }[] };
    expect(output.anyOf.map((s) => s.required)).toEqual([
      ['id', 'customer_id', 'product_id', 'quantity', 'currency', 'total', 'status', 'createdAt'],
      ['status', 'code', 'detail'],
    ]);
  });

  it('are fewer with a credential whose scopes are known: a read-only one lists no tool that writes', async () => {
    const mcp = await importMcp(sharedOutput(SHOP_API)!);
    // v3's coupons declare no scopes: any credential may write them, a reader's too, so their tools stay listed.
    const anyCredential = ['coupons_create', 'coupons_replace', 'coupons_update', 'coupons_delete'];
    for (const version of ['v1', 'v2', 'v3']) {
      const all = await inMemory(mcp, { version, baseUrl: 'http://127.0.0.1:9', auth: { bearer: 'reader' } });
      const every = (await all.listTools()).tools;
      await all.close();
      const reader = await inMemory(mcp, {
        version,
        baseUrl: 'http://127.0.0.1:9',
        auth: { bearer: 'reader' },
        scopes: ['customers:read', 'orders:read', 'webhooks:read'],
      });
      const listed = (await reader.listTools()).tools;
      // A tool the credential may not call is not there to call either.
      await expect(reader.callTool({ name: 'orders_create', arguments: { body: {} } })).rejects.toThrow(/needs the scope orders:write/);
      await reader.close();
      expect(every.filter((t) => !t.annotations?.readOnlyHint).length, version).toBeGreaterThan(0);
      const writes = listed.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
      expect(writes, version).toEqual(version === 'v3' ? anyCredential : []);
      // Every read stays.
      expect(listed.filter((t) => t.annotations?.readOnlyHint)).toEqual(every.filter((t) => t.annotations?.readOnlyHint));
    }
  });
});
