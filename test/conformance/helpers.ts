/**
 * @module Test helpers of `restgen conformance`: the two examples generated (once per test file) and started
 * on 127.0.0.1 port 0 with their in-memory handlers, or with handlers a test wraps to break them; every
 * scope granted; rate limits off (one test turns them on); the clock fixed before the shop's v1 sunset.
 */
import type { FastifyInstance } from 'fastify';
import { SHOP_API } from '../helpers/load-ir.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { HEADER_API, SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { contractOf, type ConformanceContract } from '../../generator/conformance/contract.ts';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '@restgen/conformance';

/** Handlers as the generated memory handlers give them: per collection, per operation. */
export type Handlers = Record<string, Record<string, (...args: never[]) => unknown>>;

/** How a test starts an example's server. */
export interface Setup {
  /** Records the memory handlers start with (newest version's shape). */
  readonly seed?: object;
  /** Replaces handlers (the memory handlers given). */
  readonly wrap?: (handlers: Handlers, dir: string) => Handlers | Promise<Handlers>;
  /** Adds hooks before the routes. */
  readonly mount?: (app: FastifyInstance) => void;
  /** Server options on top of the usual ones. */
  readonly options?: object;
}

/** One example, generated and loaded. */
export interface Example {
  readonly ir: ApiIR;
  /** What `restgen conformance` checks against, from the same IR. */
  readonly contract: ConformanceContract;
  readonly mod: ServerModule;
  readonly dir: string;
  /** Starts the example's server; `wrap` may replace handlers, `mount` add hooks before the routes, `options` add server options. */
  start(setup?: Setup): Promise<Running>;
}

/** Every scope of the shop example (the cancel transition needs its own). */
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel'];
/** A date before the shop's v1 sunset, so v1 answers. */
const TODAY = new Date('2026-06-01T00:00:00Z');

const running: Running[] = [];

/** Generates the example into `test/.tmp/server-<name>` and loads it. */
export async function loadExample(name: 'shop' | 'notes'): Promise<Example> {
  const api = name === 'shop' ? SHOP_API : HEADER_API;
  const dir = await generateInto(`conformance-${name}`, api);
  const mod = await importServer(dir);
  const ir = await loadIr(api);
  const register = registerOf(mod, name === 'shop' ? 'Shop' : 'Notes');
  return {
    ir,
    contract: contractOf(ir),
    mod,
    dir,
    async start(setup = {}) {
      const memory = mod.createMemoryHandlers(setup.seed ?? {}, {}) as unknown as Handlers;
      const handlers = setup.wrap ? await setup.wrap(memory, dir) : memory;
      const server = await start(async (app) => {
        setup.mount?.(app);
        await register(app, handlers, {
          authenticate: ({ token }: { token: string }) => ({ id: token, scopes: SCOPES }),
          ...(name === 'shop' ? { migrations: SHOP_MIGRATIONS } : {}),
          rateLimit: false,
          now: () => TODAY,
          ...setup.options,
        });
      });
      running.push(server);
      return server;
    },
  };
}

/** Stops every server the helpers started. */
export async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}

/** Runs conformance against `url` with a fixed seed and a credential; the report. */
export async function conform(contract: ConformanceContract, url: string, options: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> {
  const outcome = await runConformance(contract, { url, headers: [['Authorization', 'Bearer tester']], seed: 7, ...options });
  if (outcome.kind !== 'report') throw new Error(outcome.message);
  return outcome.report;
}

/** The failed checks of a report, as `version collection check` lines. */
export function failedChecks(report: ConformanceReport): string[] {
  return report.results.filter((r) => r.status === 'failed').map((r) => `${r.version} ${r.collection} ${r.check}`);
}

/** Every failure of a report, one line each (for assertion messages). */
export function failureLines(report: ConformanceReport): string {
  return report.results
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.failures.map((f) => `${r.version} ${r.collection} ${r.check} (${f.operation}): ${f.message}`))
    .join('\n');
}
