/**
 * How a released version's brownouts, docs page and the API's default version are judged: they are how the
 * versions are operated, not what a version's requests and answers are, so the lock does not record them and
 * the diff finds nothing when they change (adding, moving or removing a brownout, changing the docs page or
 * the default never breaks a released version).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import { project } from '../../generator/model/project.ts';
import { generate, loadModel } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('versions-lock');
afterAll(tmp.cleanup);

const api = (old: string, versioning: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: {
    '2025-01-15': { released: '2025-01-15', deprecated: '2026-01-01', sunset: '2027-06-01'${old} },
    '2025-09-01': { released: '2025-09-01' },
  },
  versioning: ${versioning},
  collections: { things: collection({ fields: { id: f.id(), name: f.string() } }) },
});
`;

describe('the lock and the diff', () => {
  it('neither record nor judge brownouts, docs and the default', async () => {
    const dir = path.join(tmp.dir, 'api');
    const file = path.join(dir, 'api.ts');
    writeFiles(dir, { 'api.ts': api('', `{ in: 'header', header: 'Demo-Version' }`) });
    expect((await generate({ apiPath: file })).ok).toBe(true);
    const lock = readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8');
    const before = (await loadModel(file)).ir!;
    for (const [old, versioning] of [
      [
        `, brownouts: [{ start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' }], docs: 'https://docs.example.com/upgrade'`,
        `{ in: 'header', header: 'Demo-Version', default: 'latest' }`,
      ],
      [
        `, brownouts: [{ start: '2026-07-01T10:00:00Z', end: '2026-07-01T12:00:00Z' }], docs: 'https://docs.example.com/v2'`,
        `{ in: 'header', header: 'Demo-Version', default: '2025-01-15' }`,
      ],
      ['', `{ in: 'header', header: 'Demo-Version' }`],
    ]) {
      writeFileSync(file, api(old!, versioning!));
      const result = await generate({ apiPath: file });
      expect(result.diagnostics).toEqual([]);
      expect(result.lockFindings).toEqual([]);
      expect(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')).toBe(lock);
      const after = (await loadModel(file)).ir!;
      for (const v of ['2025-01-15', '2025-09-01']) expect(diffApis(project(before, v), project(after, v), { match: 'name' }), v).toEqual([]);
    }
    expect(lock).not.toMatch(/brownout|docs\.example|"default"/);
  });
});
