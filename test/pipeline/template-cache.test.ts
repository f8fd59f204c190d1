/**
 * Templates are compiled when first rendered, from the precompiled code the cache kept: a run compiles only the
 * templates it has never seen, and renders exactly what a fresh compile renders.
 */
import { describe, expect, it } from 'vitest';
import type { ZodBarrelView } from '../../generator/emit/zod/emit-zod.ts';
import { loadTemplates } from '../../generator/templates/load-templates.ts';

type Memo = (name: string, text: string, compile: () => string) => string;

/** A memo over a plain map, counting what it had to compute. */
function mapMemo(): { memo: Memo; computed: string[]; store: Map<string, string> } {
  const store = new Map<string, string>();
  const computed: string[] = [];
  const memo: Memo = (name, text, compile) => {
    const key = `${name}\0${text}`;
    let code = store.get(key);
    if (code === undefined) {
      computed.push(name);
      store.set(key, (code = compile()));
    }
    return code;
  };
  return { memo, computed, store };
}

const VIEW: ZodBarrelView = { title: 'Shop', version: 'v1', lifecycle: 'released 2026-01-01', files: ['customers', 'orders'] };

describe('template compilation through the cache', () => {
  it('compiles a template once, on first render, and renders the same text from the kept code', () => {
    const { memo, computed } = mapMemo();
    const fresh = loadTemplates().render('zod/schemas', VIEW);
    const first = loadTemplates(undefined, memo);
    expect(computed).toEqual([]);
    expect(first.render('zod/schemas', VIEW)).toBe(fresh);
    expect(computed).toEqual(['zod/schemas']);
    // Another run with the same cache: nothing compiled again, same text.
    const second = loadTemplates(undefined, memo);
    expect(second.render('zod/schemas', VIEW)).toBe(fresh);
    expect(computed).toEqual(['zod/schemas']);
  });
});
