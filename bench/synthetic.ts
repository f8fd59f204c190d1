/**
 * @module Writes a synthetic API module for benchmarks: `collections` collections of 12 fields each, three
 * versions, with renames, additions, removals, nested objects, arrays, enums and filters spread over them.
 */

/** The source of a synthetic api.ts. `variant` changes one field of v3, to time a one-field regeneration. */
export function syntheticApi(collections: number, variant = 0): string {
  const lines: string[] = [
    `import { collection, defineApi, f } from 'restgen';`,
    ``,
    `export default defineApi({`,
    `  name: 'bench',`,
    `  versions: { v1: { released: '2026-01-01', deprecated: '2026-06-01', sunset: '2027-01-01' }, v2: { released: '2026-06-01' }, v3: {} },`,
    `  auth: { bearer: {}, apiKey: { header: 'X-API-Key' } },`,
    `  rateLimit: { limit: 100, window: '1m' },`,
    `  collections: {`,
  ];
  for (let i = 0; i < collections; i++) {
    // The changed field exists only in the unreleased v3 (so the lock allows it) and its change reaches
    // every output: zod, client types, server, OpenAPI and CHANGES.md.
    const notes = i === 0 && variant % 2 === 1 ? 'f.string().max(500).nullable()' : 'f.string().max(500)';
    lines.push(
      `    things${i}: collection({`,
      `      fields: {`,
      `        id: f.id(),`,
      `        name: f.string().min(1).max(200).filterable(),`,
      `        quantity: f.int().min(1).max(1000).renamedFrom('qty', 'v2'),`,
      `        price: f.number().min(0),`,
      `        status: f.enum(['draft', 'active', 'archived']).default('draft').filterable(),`,
      `        email: f.email().optional(),`,
      `        website: f.url().optional().addedIn('v2'),`,
      `        legacyCode: f.string().max(20).removedIn('v3', { fallback: '' }),`,
      `        tags: f.array(f.string().max(30)).max(10).default([]),`,
      `        address: f.object({ street: f.string(), zip: f.string().pattern(/^\\d{5}$/) }).optional(),`,
      `        notes: ${notes}.optional().addedIn('v3'),`,
      `        createdAt: f.datetime().readOnly(),`,
      `      },`,
      `      scopes: { read: 'things${i}:read', write: 'things${i}:write' },`,
      `    }),`,
    );
  }
  lines.push(`  },`, `});`, ``);
  return lines.join('\n');
}
