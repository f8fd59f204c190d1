/**
 * The OpenAPI document assembled from cached collection parts: each collection's paths and schemas are kept
 * printed in the cache, so that one changed collection rebuilds only its own part. The assembled text must be byte
 * for byte the document built whole, with a cold cache, a warm one, and after a change.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { buildOpenApiDocument, openApiParts } from '../../generator/emit/openapi/build-document.ts';
import { printJson } from '../../generator/emit/openapi/print-json.ts';
import type { RenderUse } from '../../generator/emit/types.ts';
import { digest } from '../../generator/pipeline/digest.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';
import { loadIr } from '../helpers/load-ir.ts';

/** `use` whose calls go through a Map by renderer and data (as the pipeline's cache keys them), counting what it computes. */
function mapMemo(): { memo: RenderUse; computed: string[] } {
  const texts = new Map<string, string>();
  const computed: string[] = [];
  const memo: RenderUse = {
    template: () => {
      throw new Error('no template renders an OpenAPI document');
    },
    call: (r, data) => {
      const key = `${r.name}\0${digest(data)}`;
      let text = texts.get(key);
      if (text === undefined) {
        computed.push(r.name);
        texts.set(key, (text = r.render(data, memo)));
      }
      return text;
    },
  };
  return { memo, computed };
}

/** The document of `at` assembled from its parts, each part through `memo`. */
const assembled = (at: ReturnType<typeof project>, memo: RenderUse): string => printJson(buildOpenApiDocument(at, openApiParts(at, memo)));

function irOf(maxLength: number): ApiIR {
  const bag = new DiagnosticBag();
  const ir = buildApi(
    defineApi({
      name: 'parts',
      versions: { v1: { released: '2026-01-01' }, v2: {} },
      auth: { apiKey: { header: 'X-API-Key' } },
      collections: {
        notes: collection({ fields: { id: f.id(), text: f.string().max(maxLength), tags: f.array(f.object({ label: f.string() })).optional() } }),
        people: collection({ fields: { id: f.id(), email: f.email().filterable(), born: f.date().optional() } }),
      },
    }),
    'api.ts',
    bag,
  );
  checkApi(ir, bag);
  expect(bag.items).toEqual([]);
  return ir;
}

describe('the OpenAPI document from cached collection parts', () => {
  it('is byte for byte the document built whole, for every version of every example, cold and warm', async () => {
    for (const apiPath of ['../../examples/shop/api.ts', '../../examples/header-versioning/api.ts', '../../examples/ledger/api.ts']) {
      const ir = await loadIr(new URL(apiPath, import.meta.url).pathname);
      const { memo, computed } = mapMemo();
      for (const v of ir.versions) {
        const whole = printJson(buildOpenApiDocument(project(ir, v.name)));
        expect(assembled(project(ir, v.name), memo), `${apiPath} ${v.name} cold`).toBe(whole);
        const before = computed.length;
        expect(assembled(project(ir, v.name), memo), `${apiPath} ${v.name} warm`).toBe(whole);
        expect(computed.length).toBe(before);
      }
    }
  });

  it('builds again only the part of the collection that changed', () => {
    const { memo, computed } = mapMemo();
    assembled(project(irOf(10), 'v2'), memo);
    expect(computed).toEqual(['openapi collection', 'openapi collection']);
    const changed = project(irOf(20), 'v2');
    const text = assembled(changed, memo);
    expect(computed).toHaveLength(3);
    expect(text).toBe(printJson(buildOpenApiDocument(changed)));
    expect(text).toContain('"maxLength": 20');
  });
});
