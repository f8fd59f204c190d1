/**
 * The lock's verdict through the cache: a quiet verdict (nothing refused, nothing to record) is kept for the very
 * same lock text, API name, versions, released projections and options, and anything that could change it compares
 * again, with the answer of a run without any cache. A refusal names the line of the change although `generate`
 * first loads the model without call sites.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cacheFile } from '../../generator/pipeline/cache.ts';
import { generate, type GenerateResult } from '../../generator/pipeline/generate.ts';
import { filesRead } from '../helpers/fs-reads.ts';
import { lineOf, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('lock-match');
afterAll(tmp.cleanup);

const API = (title: string, extra = '', v2 = '{}') => `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: ${v2} },
  collections: {
    notes: collection({ fields: { id: f.id(), title: ${title}, body: f.string().optional().addedIn('v2') } }),
  },
});${extra}
`;

/** What a run said about the lock, comparable between a run with the cache and one without. */
const verdict = (r: GenerateResult) => ({
  ok: r.ok,
  codes: r.diagnostics.map((d) => d.code),
  findings: r.lockFindings.map((f) => `${f.id} ${f.location}`),
  lockChanged: r.lockChanged,
});

describe('the lock comparison through the cache', () => {
  const dir = path.join(tmp.dir, 'p');
  const apiPath = path.join(dir, 'api.ts');
  const lockPath = path.join(dir, 'restgen.lock.json');
  const outDir = path.join(dir, 'generated');
  /** The same run once more without any cache: what the cached run must have answered. */
  const uncached = async () => {
    rmSync(cacheFile(apiPath, outDir, undefined), { force: true });
    return verdict(await generate({ apiPath, mode: 'check' }));
  };

  it('answers as a run without cache when the API or the lock change', async () => {
    writeFiles(dir, { 'api.ts': API('f.string().max(100)') });
    expect((await generate({ apiPath })).ok).toBe(true);
    const locked = readFileSync(lockPath, 'utf8');

    // A comment: the model is loaded again, the released version's verdict is recalled.
    writeFileSync(apiPath, API('f.string().max(100)', '\n// a comment'));
    expect(verdict(await generate({ apiPath }))).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });

    // A breaking change to the released version: refused, as without the cache.
    writeFileSync(apiPath, API('f.string().max(50)'));
    const run = await generate({ apiPath, mode: 'check' });
    const refused = verdict(run);
    expect(refused.codes).toEqual(['RG180']);
    // The model was loaded without call sites (nothing to report), then again with them for the refusal.
    expect(run.diagnostics[0]!.loc).toMatchObject({ file: apiPath, line: lineOf(API('f.string().max(50)'), '.max(50)'), member: 'max' });
    expect(refused).toEqual(await uncached());

    // The API as locked, but the lock edited by hand (the limit it records differs): compared again, where
    // recalling the verdict for the same projection would have answered "matches".
    writeFileSync(apiPath, API('f.string().max(100)'));
    expect((await generate({ apiPath })).ok).toBe(true);
    writeFileSync(lockPath, locked.replace('"max": 100', '"max": 80'));
    expect(readFileSync(lockPath, 'utf8')).not.toBe(locked);
    const edited = verdict(await generate({ apiPath, mode: 'check' }));
    // A longer limit than the lock promises reaches responses: breaking for v1, as without the cache.
    expect(edited.codes).toEqual(['RG180']);
    expect(edited).toEqual(await uncached());
  });

  it('recalls a quiet verdict only for the same lock text, versions and options', async () => {
    writeFiles(dir, { 'api.ts': API('f.string().max(100)') });
    rmSync(lockPath, { force: true });
    expect((await generate({ apiPath })).ok).toBe(true);
    const locked = readFileSync(lockPath, 'utf8');
    // Quiet: recorded. A comment changes nothing it depends on.
    writeFileSync(apiPath, API('f.string().max(100)', '\n// again'));
    expect(verdict(await generate({ apiPath }))).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });

    // An edit of the unreleased v2 only: the verdict stays quiet (recalled without parsing the lock), as without the cache.
    writeFileSync(
      apiPath,
      API('f.string().max(100)').replace("body: f.string().optional().addedIn('v2')", "body: f.string().max(10).optional().addedIn('v2')"),
    );
    const unreleased = verdict(await generate({ apiPath }));
    expect(unreleased).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });
    expect(unreleased).toEqual(await uncached());
    // Deprecating the released v1 changes a version's settings: judged again, as without the cache.
    writeFileSync(apiPath, API('f.string().max(100)').replace("v1: { released: '2026-01-01' }", "v1: { released: '2026-01-01', deprecated: '2026-03-01' }"));
    expect(verdict(await generate({ apiPath, mode: 'check' }))).toEqual(await uncached());
    writeFileSync(apiPath, API('f.string().max(100)', '\n// again'));
    expect(verdict(await generate({ apiPath }))).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });

    // The lock broken by hand: RG181, although the same API's verdict was quiet for the lock as it was.
    writeFileSync(lockPath, locked.slice(0, -20));
    const broken = await generate({ apiPath, mode: 'check' });
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['RG181']);
    expect(broken.diagnostics[0]!.message).toContain('is not valid JSON');
    writeFileSync(lockPath, locked);

    // Releasing v2 changes v2's projection: the lock gains v2, as without the cache; then it is quiet again.
    const released = API('f.string().max(100)', '', "{ released: '2026-02-01' }");
    writeFileSync(apiPath, released);
    const release = verdict(await generate({ apiPath, mode: 'check' }));
    expect(release).toMatchObject({ ok: false, lockChanged: true });
    expect(release.findings).toContain('version-released v2');
    expect(release).toEqual(await uncached());
    expect(verdict(await generate({ apiPath }))).toMatchObject({ ok: true, lockChanged: true });
    writeFileSync(apiPath, released + '\n// once more');
    expect(verdict(await generate({ apiPath }))).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).versions).toHaveProperty('v2');

    // Options are part of the verdict: a severity override that makes an allowed change breaking is applied.
    writeFileSync(
      apiPath,
      API('f.string().max(100)', '', "{ released: '2026-02-01' }").replace(
        "body: f.string().optional().addedIn('v2')",
        "body: f.string().optional().addedIn('v2').deprecated()",
      ),
    );
    const allowed = verdict(await generate({ apiPath, mode: 'check' }));
    const strict = verdict(await generate({ apiPath, mode: 'check', severity: { 'field-deprecated': 'breaking' } }));
    expect(allowed.codes).toEqual([]);
    expect(strict.codes).toEqual(['RG180']);
  });
});

describe('a quiet verdict', () => {
  const dir = path.join(tmp.dir, 'recorded');
  const apiPath = path.join(dir, 'api.ts');
  const lockPath = path.join(dir, 'restgen.lock.json');

  /** How many times `run` reads the lock file, and how many times it parses it (to compare the API with it). */
  const lockReads = async <T>(run: () => Promise<T>) => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const { result, reads } = await filesRead((file) => file === lockPath, run);
      const parses = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('"lockfileVersion"')).length;
      return { result, reads: reads.length, parses };
    } finally {
      parse.mockRestore();
    }
  };

  it('is recalled after an edit of an unreleased version, and not once the lock changes', async () => {
    writeFiles(dir, { 'api.ts': API('f.string().max(100)') });
    expect((await generate({ apiPath })).ok).toBe(true);
    // The run that wrote the lock judged it; the next one keeps the quiet verdict for the lock as written.
    writeFileSync(apiPath, API('f.string().max(100)', '\n// a comment'));
    expect((await generate({ apiPath })).ok).toBe(true);
    // An edit of the unreleased v2: the lock is read once (to hash it), and the kept verdict needs no parse.
    writeFileSync(
      apiPath,
      API('f.string().max(100)').replace("body: f.string().optional().addedIn('v2')", "body: f.string().max(10).optional().addedIn('v2')"),
    );
    const quiet = await lockReads(() => generate({ apiPath }));
    expect(verdict(quiet.result)).toEqual({ ok: true, codes: [], findings: [], lockChanged: false });
    expect(quiet).toMatchObject({ reads: 1, parses: 0 });
    // The lock edited by hand: another text, parsed and judged again (RG180, as without any cache).
    writeFileSync(lockPath, readFileSync(lockPath, 'utf8').replace('"max": 100', '"max": 80'));
    writeFileSync(apiPath, API('f.string().max(100)', '\n// edited lock'));
    const edited = await lockReads(() => generate({ apiPath, mode: 'check' }));
    expect(edited.parses).toBeGreaterThan(0);
    expect(verdict(edited.result).codes).toEqual(['RG180']);
  });
});
