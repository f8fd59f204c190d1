/**
 * A released version's tools are as frozen as its HTTP contract. Their names, input and output schemas, hints and
 * scopes are a function of the version's locked contract (`restgen.lock.json`: the projection without documentation)
 * alone: built from the lock's contract, they are those built from the API, documentation aside. So a released
 * version's tools change only with its contract, which the lock judges as it judges any change to it: an edit that
 * would take a tool away from a released version is refused (RG180) and writes nothing; documentation may change.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectionDocument } from '../../generator/emit/openapi/build-document.ts';
import { buildFormatSchema, FORMAT_NAMES, type FormatKind } from '../../generator/emit/openapi/field-schema.ts';
import { sharedArgumentSchemas, SHARED_REF, type SharedArgument } from '../../generator/emit/mcp/shared-arguments.ts';
import { toolSchemas } from '../../generator/emit/mcp/tool-schemas.ts';
import { apiAtOfContract, parseLock } from '../../generator/lock/index.ts';
import type { ApiAt, CollectionAt } from '../../generator/model/ir.ts';
import { toolHints, toolNameOf, toolScopes, toolTargets } from '../../generator/model/mcp-tools.ts';
import { project } from '../../generator/model/project.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { tempDir } from '../helpers/temp-api.ts';

const EXAMPLES = [SHOP_API, ...['ledger', 'header-versioning'].map((name) => new URL(`../../examples/${name}/api.ts`, import.meta.url).pathname)];

/** Keys that document a schema without constraining it. */
const DOCUMENTATION = new Set(['description', 'examples', 'title']);

/** A schema with every `$ref` inlined and its documentation left out, keys and sets (`required`, `enum`) sorted. */
function contractOfSchema(value: unknown, doc: ReturnType<typeof collectionDocument>): unknown {
  const shared = sharedArgumentSchemas(doc.parameters);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const object = v as Record<string, unknown>;
    const ref = object['$ref'];
    if (typeof ref === 'string') {
      const { $ref: _, ...siblings } = object;
      const name = ref.slice(ref.lastIndexOf('/') + 1);
      const kind = (Object.keys(FORMAT_NAMES) as FormatKind[]).find((k) => doc.formats[k] === name);
      const target = ref.startsWith(SHARED_REF) ? shared[name as SharedArgument] : kind ? buildFormatSchema(kind) : doc.schemas[name];
      if (!target) throw new Error(`unresolved ${ref}`);
      return walk({ ...target, ...siblings });
    }
    const entries = Object.entries(object)
      .filter(([k]) => !DOCUMENTATION.has(k) && !k.startsWith('x-'))
      .map(([k, x]) => [k, k === 'required' || k === 'enum' ? [...(x as unknown[])].sort() : walk(x)] as const);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  return walk(value);
}

/** Every tool of a version, by name: what the contract decides of it (schemas without documentation, hints, scopes). */
function toolsOf(at: ApiAt): Map<string, unknown> {
  const tools = new Map<string, unknown>();
  for (const c of at.collections as readonly CollectionAt[]) {
    const doc = collectionDocument(at, c);
    for (const target of toolTargets(c)) {
      const schemas = toolSchemas(doc, at, c, target);
      tools.set(toolNameOf(c, target), {
        input: contractOfSchema(schemas.input, doc),
        output: schemas.output && contractOfSchema(schemas.output, doc),
        hints: toolHints(c, target),
        scopes: [...(toolScopes(at, c, target) ?? ['(public)'])].sort(),
      });
    }
  }
  return tools;
}

describe("a released version's tools", () => {
  it.each(EXAMPLES)('are a function of its locked contract: %s', async (apiPath) => {
    const ir = await loadIr(apiPath);
    const parsed = parseLock(readFileSync(path.join(path.dirname(apiPath), 'restgen.lock.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    const released = Object.keys(parsed.lock.versions);
    expect(released.length).toBeGreaterThan(0);
    for (const version of released) {
      const fromLock = toolsOf(apiAtOfContract(ir.name, parsed.lock.versions[version]!, 'restgen.lock.json'));
      const fromApi = toolsOf(project(ir, version));
      expect([...fromLock.keys()].sort(), version).toEqual([...fromApi.keys()].sort());
      for (const [name, tool] of fromApi) expect(fromLock.get(name), `${version} ${name}`).toEqual(tool);
    }
  });
});

describe('an edit to the shop example', () => {
  const tmp = tempDir('mcp-frozen');
  afterAll(tmp.cleanup);
  const shop = path.dirname(SHOP_API);
  /** The example in a folder of its own (its source and lock), with `edit` applied to its api.ts. */
  const copy = (name: string, edit: (source: string) => string): string => {
    const dir = path.join(tmp.dir, name);
    for (const file of ['api.ts', 'address.ts', 'restgen.lock.json']) cpSync(path.join(shop, file), path.join(dir, file));
    const apiPath = path.join(dir, 'api.ts');
    writeFileSync(apiPath, edit(readFileSync(apiPath, 'utf8')));
    return apiPath;
  };

  it('that would take a tool from a released version is refused, and writes nothing', async () => {
    // customers_replace, in v1 and v2.
    const apiPath = copy('no-replace', (s) =>
      s.replace(
        "scopes: { read: 'customers:read', write: 'customers:write' },",
        "scopes: { read: 'customers:read', write: 'customers:write' },\n      operations: ['list', 'get', 'create', 'update', 'delete'],",
      ),
    );
    const result = await generate({ apiPath });
    expect(result.ok).toBe(false);
    // One error for the change, naming both released versions it would break.
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['RG180', expect.stringMatching(/^v1 and v2 are released and frozen, but customers: replace removed/)],
    ]);
    expect(existsSync(path.join(path.dirname(apiPath), 'generated'))).toBe(false);
  });

  it('to documentation changes no released tool but in its words', async () => {
    const apiPath = copy('docs', (s) => s.replace("description: 'An order of one product by one customer.',", "description: 'One product, ordered.',"));
    expect((await generate({ apiPath })).ok).toBe(true);
    const [edited, original] = [await loadIr(apiPath), await loadIr(SHOP_API)];
    for (const version of ['v1', 'v2']) expect(toolsOf(project(edited, version)), version).toEqual(toolsOf(project(original, version)));
  });
});
