/**
 * @module The runtime's one-pass zod fast paths against the libraries they stand in for, in process on the bench
 * API's v3 `Order`. Answers (one resource with two extra keys a handler might add): the checked writer (what the
 * server answers with: checks every value and writes only declared keys, in one pass); the stripped writer
 * (`validateResponses: false`); zod's parse + `JSON.stringify` (the checked writer's fallback); zod's parse +
 * fast-json-stringify compiled from `z.toJSONSchema` (the same guarantee from the libraries: Fastify's own
 * serializer); fast-json-stringify alone (strips by writing only declared keys, checks nothing, coerces wrong
 * types); plain `JSON.stringify` (no guarantee) as the floor. Requests (a valid create body): the checked reader
 * against zod's `safeParse`, which it stands in for. Each way runs in a process of its own; prints operations per
 * second of CPU (median of 3 runs of 1 s of CPU: a shared machine's load moves CPU time far less than wall time).
 * Run: `npx jiti bench/server-serializer.ts` (it generates the API, then runs this file on its v3 schemas), or
 * `npx jiti packages/runtime/bench/serializer.ts <path of a generated v3/schemas.ts of the bench API>`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { createRequestParser } from '../src/checked-read.ts';
import { createWriter } from '../src/checked-text.ts';
import { createShaper } from '../src/shape.ts';

const JITI = fileURLToPath(new URL('../../../node_modules/jiti/lib/jiti-cli.mjs', import.meta.url));
const schemas = process.argv[2];
if (schemas === undefined) throw new Error('usage: serializer.ts <generated v3/schemas.ts of bench/server-api.ts>');
const V3 = (await import(schemas)) as { Order: z.ZodObject; OrderCreate: z.ZodObject };

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
const body = { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, quantity: 2, currency: 'USD', giftMessage: 'Enjoy' };

const validate = createShaper(V3.Order, true);
const strip = createShaper(V3.Order, false);
const compiled = fastJson(z.toJSONSchema(V3.Order, { io: 'output' }) as Parameters<typeof fastJson>[0]);
const checkedWriter = createWriter(V3.Order, true);
const strippedWriter = createWriter(V3.Order, false);
const readBody = createRequestParser(V3.OrderCreate);
if (!readBody(body).success) throw new Error('the bench body does not pass OrderCreate');

/** A way to answer or read, what it guarantees, and whether it strips unknown keys at every depth. */
type Way = readonly [name: string, checks: string, strips: string, run: () => unknown];
const answers: readonly Way[] = [
  [
    'checked writer, one pass (validateResponses: true, the default)',
    'yes',
    'yes',
    () => {
      const written = checkedWriter(answer);
      return written.ok ? written.text : '';
    },
  ],
  [
    'stripped writer, one pass (validateResponses: false)',
    'no',
    'yes',
    () => {
      const written = strippedWriter(answer);
      return written.ok ? written.text : '';
    },
  ],
  [
    "zod parse + JSON.stringify (the checked writer's fallback)",
    'yes',
    'yes',
    () => {
      const shaped = validate(answer);
      return shaped.ok ? JSON.stringify(shaped.value) : '';
    },
  ],
  [
    'zod parse + fast-json-stringify (the same guarantee from the libraries)',
    'yes',
    'yes',
    () => {
      const parsed = V3.Order.safeParse(answer);
      return parsed.success ? compiled(parsed.data) : '';
    },
  ],
  [
    'key-tree strip + JSON.stringify',
    'no',
    'yes',
    () => {
      const shaped = strip(answer);
      return shaped.ok ? JSON.stringify(shaped.value) : '';
    },
  ],
  ['fast-json-stringify from the JSON Schema alone', 'no (coerces)', 'yes', () => compiled(answer)],
  ['JSON.stringify alone (no guarantee)', 'no', 'no', () => JSON.stringify(answer)],
];
const requests: readonly Way[] = [
  ['checked reader, one pass (what the server reads bodies and queries with)', 'yes', 'rejects', () => readBody(body)],
  ["zod safeParse (the checked reader's fallback)", 'yes', 'rejects', () => V3.OrderCreate.safeParse(body)],
];

/** The process's CPU time (user + system) in ms: a shared machine's load moves it far less than the wall clock. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function opsPerSecond(fn: () => unknown, ms = 1000): number {
  for (let i = 0; i < 20_000; i++) fn();
  let n = 0;
  const started = cpuMs();
  while (cpuMs() - started < ms) for (let i = 0; i < 1000; i++, n++) fn();
  return n / ((cpuMs() - started) / 1000);
}

const median = (fn: () => unknown): number => [opsPerSecond(fn), opsPerSecond(fn), opsPerSecond(fn)].sort((a, b) => a - b)[1]!;

const ways = [...answers, ...requests];
const asked = process.argv[3];
if (asked !== undefined) {
  // One way in a process of its own: a way measured after others would run on code V8 optimized for theirs.
  console.log(String(median(ways[Number(asked)]![3])));
} else {
  const measured = ways.map((_, i) => {
    const out = execFileSync(process.execPath, [JITI, fileURLToPath(import.meta.url), schemas, String(i)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return Number(out.trim().split('\n').at(-1));
  });
  /** A table of `rows` (from `offset` in the measured list), each with its ops/s and its ratio to the first. */
  const table = (rows: readonly Way[], offset: number, unknownKeys: string): void => {
    console.log(`| way | ops/s | ÷ the first | checks values | ${unknownKeys} |\n|---|---|---|---|---|`);
    const first = measured[offset]!;
    rows.forEach(([name, checks, strips], i) => {
      const ops = measured[offset + i]!;
      console.log(`| ${name} | ${Math.round(ops).toLocaleString('en')} | ${(ops / first).toFixed(2)}x | ${checks} | ${strips} |`);
    });
  };
  console.log('response shaping, one v3 Order with 2 extra keys, each way in its own process (median of 3 runs of 1 s of CPU; ops per CPU second)\n');
  table(answers, 0, 'strips at every depth');
  console.log('\nrequest reading, one valid v3 OrderCreate body, each way in its own process (median of 3 runs of 1 s of CPU; ops per CPU second)\n');
  table(requests, answers.length, 'unknown keys');
}
