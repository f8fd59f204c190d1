/**
 * @module How to put the response guarantee on the wire, measured in process on the bench API's v3 `Order` (one
 * resource with two extra keys a handler might add): the runtime's checked writer (what the server answers with:
 * checks every value and writes only declared keys, in one pass); its stripped writer (`validateResponses: false`);
 * zod's parse (strips unknown keys at every depth and checks every value, the writer's fallback for schemas it does
 * not read) + `JSON.stringify`; fast-json-stringify compiled from the version's JSON Schema (what Fastify's response
 * schemas use: strips by serializing only declared keys, checks nothing, coerces wrong types); and plain
 * `JSON.stringify` (no guarantee) as the floor. Prints operations per second.
 * Run: `npx jiti bench/server-serializer.ts` (after `npx jiti bench/server.ts` generated `.bench/server`).
 */
import fastJson from 'fast-json-stringify';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createWriter } from '../packages/runtime/src/checked-text.ts';
import { createShaper } from '../packages/runtime/src/shape.ts';
import { generate } from '../generator/pipeline/generate.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, '.bench/server');
const generated = await generate({ apiPath: path.join(root, 'bench/server-api.ts'), outDir });
if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
const V3 = (await import(path.join(outDir, 'v3/schemas.ts'))) as { Order: z.ZodObject };

const answer = {
  id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
  customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e',
  product_id: 7,
  quantity: 2,
  currency: 'USD',
  giftMessage: 'Enjoy',
  status: 'open',
  createdAt: '2026-03-01T00:00:00.000Z',
  internalNote: 'not for the wire',
  passwordHash: 'x',
};

const validate = createShaper(V3.Order, true);
const strip = createShaper(V3.Order, false);
const compiled = fastJson(z.toJSONSchema(V3.Order, { io: 'output' }) as Parameters<typeof fastJson>[0]);
const checkedWriter = createWriter(V3.Order, true);
const strippedWriter = createWriter(V3.Order, false);
const ways: Record<string, () => string> = {
  'checked writer, one pass (validateResponses: true, the default)': () => {
    const written = checkedWriter(answer);
    return written.ok ? written.text : '';
  },
  'stripped writer, one pass (validateResponses: false)': () => {
    const written = strippedWriter(answer);
    return written.ok ? written.text : '';
  },
  "zod parse + JSON.stringify (the checked writer's fallback)": () => {
    const shaped = validate(answer);
    return shaped.ok ? JSON.stringify(shaped.value) : '';
  },
  'key-tree strip + JSON.stringify': () => {
    const shaped = strip(answer);
    return shaped.ok ? JSON.stringify(shaped.value) : '';
  },
  'fast-json-stringify from the JSON Schema (strips, checks nothing)': () => compiled(answer),
  'JSON.stringify alone (no guarantee)': () => JSON.stringify(answer),
};

function opsPerSecond(fn: () => string, ms = 1000): number {
  for (let i = 0; i < 20_000; i++) fn();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < ms) for (let i = 0; i < 1000; i++, n++) fn();
  return n / ((performance.now() - started) / 1000);
}

console.log('response shaping, one v3 Order with 2 extra keys, in process (median of 3 runs of 1 s)\n');
console.log('| way | ops/s | checks values | strips at every depth |\n|---|---|---|---|');
const checks: Record<string, string> = {
  'checked writer': 'yes',
  'stripped writer': 'no',
  'zod parse': 'yes',
  'key-tree': 'no',
  'fast-json': 'no (coerces)',
  'JSON.stringify': 'no',
};
for (const [name, fn] of Object.entries(ways)) {
  const runs = [opsPerSecond(fn), opsPerSecond(fn), opsPerSecond(fn)].sort((a, b) => a - b);
  const key = Object.keys(checks).find((k) => name.startsWith(k))!;
  console.log(`| ${name} | ${Math.round(runs[1]!).toLocaleString('en')} | ${checks[key]} | ${key === 'JSON.stringify' ? 'no' : 'yes'} |`);
}
