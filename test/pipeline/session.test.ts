/**
 * A generate session (what `restgen generate --watch` keeps between runs) writes exactly what a fresh run writes.
 * One folder is driven through a scripted sequence of edits by one session; after every step a second folder,
 * holding the same API files and the same lock but neither output nor caches, is generated afresh, and the two
 * must agree byte for byte (every output and the lock), give the same diagnostics, and pass
 * `check`. Steps include DSL errors and a break the lock refuses, each followed by its fix: a failed run must not
 * leave anything behind that a later run would trust.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateDiagnostics } from '../../generator/model/locate.ts';
import { generate, type GenerateResult } from '../../generator/pipeline/generate.ts';
import { cacheFile } from '../../generator/pipeline/cache.ts';
import { createGenerateSession } from '../../generator/pipeline/session.ts';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('session');
afterAll(tmp.cleanup);

/** The knobs the steps turn; each renders to api.ts and shared.ts. */
interface Api {
  readonly versions: string;
  readonly auth: string;
  readonly rateLimit: string;
  /** The `nickname` field of customers (only in v2 and later: unreleased). */
  readonly nickname: string;
  /** Extra collections, as source. */
  readonly extra: string;
  /** shared.ts, which api.ts imports. */
  readonly shared: string;
  /** The orders' quantity field. */
  readonly quantity: string;
  /** Markers after the orders' note field (from shared.ts). */
  readonly noteMarkers: string;
  /** The pattern of customers' `postcode` (only in v2 and later). */
  readonly zip: string;
}

const START: Api = {
  versions: `{ v1: { released: '2026-01-01' }, v2: {} }`,
  auth: `{ bearer: {} }`,
  rateLimit: `{ limit: 100, window: '1m' }`,
  nickname: `f.string().min(1).max(200)`,
  extra: `    tags: collection({ fields: { id: f.id(), label: f.string().max(30) } }),\n`,
  shared: `import { f } from 'restgen';\nexport const NOTE_MAX = 500;\nexport const note = () => f.string().max(NOTE_MAX).optional().addedIn('v2');\n`,
  quantity: `f.int().min(1).max(1000)`,
  noteMarkers: '',
  zip: `/^\\d{5}$/`,
};

function files(api: Api): Record<string, string> {
  return {
    'shared.ts': api.shared,
    'api.ts': `import { collection, defineApi, f } from 'restgen';
import { note } from './shared.ts';

export default defineApi({
  name: 'shop',
  versions: ${api.versions},
  auth: ${api.auth},
  rateLimit: ${api.rateLimit},
  collections: {
    customers: collection({
      fields: {
        id: f.id(),
        name: f.string().min(1).max(200),
        nickname: ${api.nickname}.optional().addedIn('v2'),
        tier: f.enum(['free', 'pro']).default('free').filterable(),
        address: f.object({ street: f.string(), zip: f.string().pattern(/^d{5}$/) }).optional(),
        postcode: f.object({ code: f.string().pattern(${api.zip}) }).optional().addedIn('v2'),
      },
      scopes: { read: 'customers:read', write: 'customers:write' },
    }),
    orders: collection({
      fields: {
        id: f.id(),
        customer_id: f.ref('customers'),
        quantity: ${api.quantity},
        note: note()${api.noteMarkers},
        status: f.enum(['open', 'paid']).readOnly(),
      },
      public: ['list', 'get'],
    }),
${api.extra}  },
});
`,
  };
}

/** Every file of `dir` with its bytes, as text. */
const snapshot = (dir: string): Record<string, string> =>
  existsSync(dir) ? Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')])) : {};

/** What a diagnostic says and where, as a report shows it (column included). */
async function described(result: GenerateResult): Promise<string[]> {
  return (await locateDiagnostics(result.diagnostics)).map(
    (d) => `${d.code} ${d.severity} ${d.loc?.file ? path.basename(d.loc.file) : '-'}:${d.loc?.line}:${d.column} ${d.message}`,
  );
}

const watched = path.join(tmp.dir, 'watched');
const fresh = path.join(tmp.dir, 'fresh');
const session = createGenerateSession();

/** Drops everything a run leaves besides the API files and the lock: outputs and caches. */
function forgetOutputs(dir: string): void {
  rmSync(path.join(dir, 'generated'), { recursive: true, force: true });
  const cache = cacheFile(path.join(dir, 'api.ts'), path.join(dir, 'generated'), undefined);
  const base = path.basename(cache, '.json');
  if (existsSync(path.dirname(cache)))
    for (const f of readdirSync(path.dirname(cache))) if (f.startsWith(base)) rmSync(path.join(path.dirname(cache), f), { force: true });
}

/**
 * Writes `api` into both folders, runs the session in one and a fresh generate in the other (from the same lock,
 * without outputs or caches), and compares everything they wrote and said. Returns the session's result.
 */
async function step(api: Api, ok = true): Promise<GenerateResult> {
  writeFiles(watched, files(api));
  writeFiles(fresh, files(api));
  const lock = path.join(watched, 'restgen.lock.json');
  rmSync(path.join(fresh, 'restgen.lock.json'), { force: true });
  if (existsSync(lock)) writeFileSync(path.join(fresh, 'restgen.lock.json'), readFileSync(lock));
  const before = snapshot(path.join(watched, 'generated'));
  forgetOutputs(fresh);
  const kept = await generate({ apiPath: path.join(watched, 'api.ts'), session, today: '2026-11-23' });
  const reference = await generate({ apiPath: path.join(fresh, 'api.ts'), today: '2026-11-23' });
  expect(await described(kept)).toEqual(await described(reference));
  expect(kept.ok).toBe(reference.ok);
  expect(kept.ok, (await described(kept)).join('\n')).toBe(ok);
  if (!reference.ok) {
    // Nothing was written: the session's folder is as it was.
    expect(snapshot(path.join(watched, 'generated'))).toEqual(before);
    return kept;
  }
  expect(kept.lockFindings).toEqual(reference.lockFindings);
  expect(snapshot(path.join(watched, 'generated'))).toEqual(snapshot(path.join(fresh, 'generated')));
  expect(readFileSync(lock, 'utf8')).toBe(readFileSync(path.join(fresh, 'restgen.lock.json'), 'utf8'));
  const check = await generate({ apiPath: path.join(watched, 'api.ts'), mode: 'check', today: '2026-11-23' });
  expect(check.stale).toEqual([]);
  expect(check.ok).toBe(true);
  return kept;
}

describe('a generate session', () => {
  it('writes, after every edit of a scripted sequence, exactly what a fresh run writes', async () => {
    let api = START;
    const first = await step(api);
    expect(first.written.length).toBeGreaterThan(20);
    expect(session.collections.stats).toEqual({ reused: 0, built: 3 });

    // One field changed: the other collections are reused, and only the files it reaches are written.
    api = { ...api, nickname: `f.string().min(1).max(300)` };
    const one = await step(api);
    expect(session.collections.stats).toEqual({ reused: 2, built: 1 });
    expect(one.written).toContain('v2/customers.ts');
    expect(one.written).not.toContain('v2/orders.ts');

    // A regular expression's pattern is part of what a collection is built from.
    api = { ...api, zip: `/^\\d{4}$/` };
    await step(api);
    expect(session.collections.stats.built).toBe(1);
    expect(readFileSync(path.join(watched, 'generated/v2/customers.ts'), 'utf8')).toContain('\\d{4}');

    // A collection added, then removed.
    api = { ...api, extra: `${api.extra}    coupons: collection({ fields: { id: f.id(), code: f.string().min(3) } }).addedIn('v2'),\n` };
    await step(api);
    expect(existsSync(path.join(watched, 'generated/v2/coupons.ts'))).toBe(true);
    api = { ...api, extra: START.extra };
    const removed = await step(api);
    expect(removed.removed).toContain('v2/coupons.ts');

    // API-level settings: every collection is built again where they reach it.
    api = { ...api, auth: `{ bearer: {}, apiKey: { header: 'X-API-Key' } }`, rateLimit: `{ limit: 50, window: '1s' }` };
    await step(api);
    api = { ...api, versions: `{ v1: { released: '2026-01-01' }, v2: {}, v3: {} }` };
    await step(api);
    expect(session.collections.stats).toEqual({ reused: 0, built: 3 });
    // Scopes without auth are a DSL error (RG111), reported the same; then auth comes back.
    api = { ...api, auth: `{}` };
    await step(api, false);
    api = { ...api, auth: `{ bearer: {}, apiKey: { header: 'X-API-Key' } }` };
    await step(api);

    // A field renamed in an unreleased version.
    api = { ...api, noteMarkers: `.renamedFrom('memo', 'v3')` };
    await step(api);
    expect(readFileSync(path.join(watched, 'generated/v2/orders.ts'), 'utf8')).toContain('memo');
    expect(readFileSync(path.join(watched, 'generated/v3/orders.ts'), 'utf8')).not.toContain('memo');

    // A file the API module imports changes; api.ts itself does not.
    api = { ...api, shared: START.shared.replace('NOTE_MAX = 500', 'NOTE_MAX = 800') };
    await step(api);
    expect(session.collections.stats).toEqual({ reused: 2, built: 1 });
    expect(readFileSync(path.join(watched, 'generated/v2/orders.ts'), 'utf8')).toContain('800');

    // A DSL error, then its fix.
    api = { ...api, nickname: `f.string().min(10).max(5)` };
    const broken = await step(api, false);
    expect(broken.diagnostics.map((d) => d.code)).toContain('RG131');
    api = { ...api, nickname: `f.string().min(1).max(250)` };
    await step(api);

    // v2 is released (the lock records it), then a break of released v1 is refused, then fixed by a marker.
    api = { ...api, versions: `{ v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} }` };
    const released = await step(api);
    expect(released.lockChanged).toBe(true);
    api = { ...api, quantity: `f.int().min(1).max(10)` };
    const refused = await step(api, false);
    expect(refused.diagnostics.map((d) => d.code)).toContain('RG180');
    api = { ...api, quantity: START.quantity };
    await step(api);

    // Another process generates into the same folder between two runs of the session: the session reads what it
    // wrote (v3 is unreleased, so its collections may still change).
    const later = (max: number) => `${START.extra}    labels: collection({ fields: { id: f.id(), text: f.string().max(${max}) } }).addedIn('v3'),\n`;
    writeFiles(watched, files({ ...api, extra: later(10) }));
    expect((await generate({ apiPath: path.join(watched, 'api.ts'), today: '2026-11-23' })).ok).toBe(true);
    api = { ...api, extra: later(20) };
    await step(api);

    // An edit back to an earlier state, and a run with nothing changed.
    api = { ...api, extra: later(10) };
    await step(api);
    const same = await step(api);
    expect(same.written).toEqual([]);
  });
});
