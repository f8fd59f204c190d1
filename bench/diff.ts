/**
 * @module Timing of the diff engine for `npm run bench`: diffs two versions of an API in process, after a
 * warm-up, and reports the median. `createSyntheticApi` builds a large API in memory (no files) with the
 * same shape as `bench/synthetic.ts`, so the diff can be timed on its own.
 */
import { diffApis } from '../generator/diff/index.ts';
import { collection, defineApi, f } from '../generator/dsl/index.ts';
import { buildApi } from '../generator/model/build.ts';
import { checkApi } from '../generator/model/check.ts';
import { DiagnosticBag } from '../generator/model/diagnostics.ts';
import type { ApiIR } from '../generator/model/ir.ts';
import { project } from '../generator/model/project.ts';

/** A checked API of `collections` collections of 12 fields, three versions, markers spread over them. */
export function createSyntheticApi(collections = 200): ApiIR {
  const entries = Array.from({ length: collections }, (_, i) => [
    `things${i}`,
    collection({
      fields: {
        id: f.id(),
        name: f.string().min(1).max(200).filterable(),
        quantity: f.int().min(1).max(1000).renamedFrom('qty', 'v2'),
        price: f.number().min(0),
        status: f.enum(['draft', 'active', 'archived']).default('draft').filterable(),
        email: f.email().optional(),
        website: f.url().optional().addedIn('v2'),
        legacyCode: f.string().max(20).removedIn('v3', { fallback: '' }),
        tags: f.array(f.string().max(30)).max(10).default([]),
        address: f.object({ street: f.string(), zip: f.string().pattern(/^\d{5}$/) }).optional(),
        owner_id: f.uuid().optional().addedIn('v3'),
        createdAt: f.datetime().readOnly(),
      },
      scopes: { read: `things${i}:read`, write: `things${i}:write` },
    }),
  ]);
  const def = defineApi({
    name: 'bench',
    versions: { v1: { released: '2026-01-01', deprecated: '2026-06-01', sunset: '2027-01-01' }, v2: { released: '2026-06-01' }, v3: {} },
    auth: { bearer: {}, apiKey: { header: 'X-API-Key' } },
    rateLimit: { limit: 100, window: '1m' },
    collections: Object.fromEntries(entries),
  });
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'synthetic.ts', bag);
  checkApi(ir, bag);
  if (bag.hasErrors) throw new Error(`synthetic API has diagnostics: ${bag.items.map((d) => d.code).join(', ')}`);
  return ir;
}

/** Result of {@link benchDiff}. */
export interface DiffBenchResult {
  readonly name: string;
  /** Median wall time of projecting both versions and diffing them, in milliseconds. */
  readonly medianMs: number;
  readonly runs: number;
  readonly findings: number;
}

/**
 * Times `project` + `diffApis` from `from` to `to` (default: the first two versions). Give the IR of the
 * bench's synthetic module, or let it build one of `collections` collections in memory.
 * @example const r = benchDiff({ collections: 200 }); console.log(`${r.name}: ${r.medianMs} ms`);
 */
export function benchDiff(options: { api?: ApiIR; collections?: number; from?: string; to?: string; runs?: number } = {}): DiffBenchResult {
  const api = options.api ?? createSyntheticApi(options.collections ?? 200);
  const from = options.from ?? api.versions[0]!.name;
  const to = options.to ?? api.versions[1]?.name ?? from;
  const runs = options.runs ?? 7;
  const run = () => diffApis(project(api, from), project(api, to)).length;
  run(); // warm-up: JIT and lazily initialised modules
  const times: number[] = [];
  let findings = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    findings = run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const medianMs = Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
  return { name: `diff ${from} → ${to} (${api.collections.length} collections)`, medianMs, runs, findings };
}
