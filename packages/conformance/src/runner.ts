/**
 * @module A conformance run: every check on every selected collection of every selected version, oldest version
 * first, collection by collection; the records a version's checks made are deleted before the next version;
 * then the versions check between the oldest and the newest selected version. Nothing here touches the
 * process: the command prints the report and decides the exit code.
 */
import { CONTRACT_FORMAT } from './types.js';
import type { ApiIR, CollectionAt, ConformanceContract, FieldAt } from 'restgen/contract';
import { DEFINITIONS, checkVersions } from './checks/index.js';
import { createContext } from './context.js';
import { guarded } from './guard.js';
import { createHttp, REAL_CLOCK, sizeText, type Http } from './http.js';
import { Session } from './session.js';
import { ATTEMPTS, BOUNDS, CHECK_IDS, DEFAULTS, STAND_IN_HEADER, type ConformanceOptions, type ConformanceReport, type Incomplete } from './types.js';
import { createValues } from './values.js';

/** What a run came to: a report, or a server it could not reach at all. */
export type RunOutcome = { readonly kind: 'report'; readonly report: ConformanceReport } | { readonly kind: 'unreachable'; readonly message: string };

/** Whether any field of `fields` is write-only, at any depth. */
function hasWriteOnly(fields: readonly FieldAt[]): boolean {
  return fields.some(
    (f) =>
      f.writeOnly ||
      (f.type.kind === 'object' && hasWriteOnly(f.type.fields)) ||
      (f.type.kind === 'array' && f.type.of.kind === 'object' && hasWriteOnly(f.type.of.fields)),
  );
}

/** Every name a collection has had (newest first), for `--only`. */
export function collectionNames(ir: ApiIR, key: string): string[] {
  const c = ir.collections.find((x) => x.name === key);
  return c ? [c.name, ...c.renames.map((r) => r.from)] : [key];
}

/** The collections a run checks: not restgen's built-in ones, and only those `only` names (by any name they had). */
export function isChecked(ir: ApiIR, c: CollectionAt, only: readonly string[] | undefined): boolean {
  if (c.builtin !== undefined) return false;
  return only === undefined || only.length === 0 || collectionNames(ir, c.key).some((n) => only.includes(n));
}

/** The options of a run with every default filled in. */
type Settled = Required<Omit<ConformanceOptions, 'seed' | 'headers' | 'versions' | 'only'>> & ConformanceOptions;

/**
 * Runs every check of `contract` (from restgen's `loadContract`) against the server at `options.url`. `progress`
 * hears a line per collection.
 */
export async function runConformance(
  contract: ConformanceContract,
  options: ConformanceOptions,
  progress: (line: string) => void = () => {},
): Promise<RunOutcome> {
  if (contract.format !== CONTRACT_FORMAT)
    throw new Error(
      `@restgen/conformance reads contract format ${CONTRACT_FORMAT}, but this restgen wrote format ${String(contract.format)}: install the @restgen/conformance that goes with your restgen`,
    );
  const settled: Settled = { ...DEFAULTS, clock: REAL_CLOCK, ...options };
  const http = createHttp({
    url: settled.url,
    headers: settled.headers ?? [],
    maxWait: settled.maxWait,
    maxTotalWait: settled.maxTotalWait,
    timeout: settled.timeout,
    maxBody: settled.maxBody,
    deadline: settled.clock.now() + settled.deadline,
    clock: settled.clock,
  });
  try {
    return await runWith(contract, settled, http, progress);
  } finally {
    http.close();
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${ms / 1000} s`;

/** Why the run could not complete, as the report says it. */
function incompleteOf(http: Http, options: Settled, stoppedAt: string | undefined): Incomplete[] {
  const p = http.problems;
  const out: Incomplete[] = [];
  if (p.timeout > 0)
    out.push({
      reason: 'timeout',
      count: p.timeout,
      message: `${plural(p.timeout, 'request')} got no complete answer within ${seconds(options.timeout)} (--timeout)`,
    });
  if (p.oversize > 0)
    out.push({
      reason: 'oversize',
      count: p.oversize,
      message: `${plural(p.oversize, 'answer')} had a body larger than ${sizeText(options.maxBody)}, which was not read on (--max-body)`,
    });
  if (p.connection > 0)
    out.push({
      reason: 'connection',
      count: p.connection,
      message: `${plural(p.connection, 'request')} failed: the connection was refused, reset or closed before the answer was complete`,
    });
  if (p['rate-limited'] > 0)
    out.push({
      reason: 'rate-limited',
      count: p['rate-limited'],
      message: `${plural(p['rate-limited'], 'request')} still answered 429 when the waiting allowed was spent (${seconds(options.maxWait)} per answer with --max-wait, ${seconds(options.maxTotalWait)} in all with --max-total-wait, ${ATTEMPTS} attempts); give the server limits that fit a run`,
    });
  if (stoppedAt !== undefined)
    out.push({
      reason: 'deadline',
      count: 1,
      message: `the run deadline of ${seconds(options.deadline)} (--deadline) passed at ${stoppedAt}: it and the checks after it did not run`,
    });
  return out;
}

async function runWith(contract: ConformanceContract, options: Settled, http: Http, progress: (line: string) => void): Promise<RunOutcome> {
  const ir = contract.ir;
  const versions = ir.versions.map((v) => v.name).filter((v) => !options.versions?.length || options.versions.includes(v));
  const session = new Session(contract, http, createValues(options.seed ?? Math.floor(Math.random() * 2 ** 31)), options.concurrency);
  const first = session.scope(versions[0]!);
  const probe = await http.send({ method: 'GET', path: `${first.prefix}/${first.api.collections[0]?.path ?? ''}`, headers: first.headers });
  // Without an answer to the first request there is nothing to check (each later request would wait as long).
  if (probe.answer === null)
    return {
      kind: 'unreachable',
      message:
        probe.problem === 'connection' ? `cannot reach ${options.url}: ${probe.error}` : `${options.url} gave no answer to the first request: ${probe.error}`,
    };

  // `restgen serve` names its stand-in migration hooks on every answer.
  const standIns = probe.answer.headers[STAND_IN_HEADER];
  session.standIns = standIns === undefined ? [] : standIns.split(',').map((id) => id.trim()).filter((id) => id !== '');
  let stoppedAt: string | undefined;
  const live: string[] = [];
  run: for (const version of versions) {
    const v = session.scope(version);
    const collections = v.api.collections.filter((x) => isChecked(ir, x, options.only));
    // A version past its sunset answers 410 to everything: nothing of it can be checked, and that is no failure.
    const gone = collections[0] && (await http.send({ method: 'GET', path: `${v.prefix}/${collections[0].path}`, headers: v.headers })).answer?.status === 410;
    if (!gone) live.push(version);
    for (const c of collections) {
      if (gone) {
        session.results.skip(version, c.name, 'documented-answers', `${version} answers 410 Gone: it is past its sunset`);
        continue;
      }
      progress(`${version} ${c.name}`);
      session.results.ran(version, c.name, 'documented-answers');
      session.results.ran(version, c.name, 'declared-fields');
      if (hasWriteOnly(c.fields)) session.results.ran(version, c.name, 'write-only-hidden');
      for (const id of CHECK_IDS) {
        const definition = DEFINITIONS[id];
        if (typeof definition === 'string') continue;
        // A check that does not apply (an operation or a feature the collection lacks) is no result at all.
        const ctx = createContext(session, v, c, id);
        if (definition.needs.some((op) => !c.operations.includes(op)) || definition.applies?.(ctx) !== undefined) continue;
        if (http.expired) {
          stoppedAt = `${version} ${c.name} ${id}`;
          break run;
        }
        await guarded(session, { version, collection: c.name }, id, () => definition.run(ctx));
      }
    }
    await session.cleanup();
  }

  if (stoppedAt === undefined && live.length >= 2) {
    const oldest = session.scope(live[0]!);
    const newest = session.scope(live.at(-1)!);
    for (const c of newest.api.collections.filter((x) => isChecked(ir, x, options.only) && oldest.api.collections.some((o) => o.key === x.key))) {
      if (http.expired) {
        stoppedAt = `${oldest.name} → ${newest.name} ${c.name} versions`;
        break;
      }
      progress(`${oldest.name} → ${newest.name} ${c.name}`);
      await checkVersions(session, oldest, newest, c.key);
    }
  }
  // Past the deadline the records made are still deleted, within a grace of their own; what is left then is listed.
  await session.cleanup();
  if (session.pending > 0) {
    http.extend(options.clock.now() + BOUNDS.cleanup.default);
    await session.cleanup();
    session.abandon(`not deleted: the run deadline had passed, and the ${BOUNDS.cleanup.default / 1000} s after it too`);
  }

  return {
    kind: 'report',
    report: {
      api: ir.title,
      url: options.url,
      versions,
      concurrency: options.concurrency,
      results: session.results.list(),
      requests: http.sent,
      leftovers: session.leftovers,
      incomplete: incompleteOf(http, options, stoppedAt),
      standIns: session.standIns,
    },
  };
}
