/**
 * Whatever carries `addedIn`/`removedIn` (collections, fields, operations, `public` entries, transitions, events)
 * and exists in no version is a mistake in its versions: removed before it is added (RG151), or removed in the
 * first version (RG163). It is reported at the marker, and nothing is generated from it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

type Options = Parameters<typeof collection>[0];

/** What building and checking the desk API (v1 to v3) reports, its `agents` collection written as `options` say. */
function problems(options: Partial<Options>, more: Partial<Parameters<typeof defineApi>[0]> = {}): string[] {
  const bag = new DiagnosticBag();
  const def = defineApi({
    name: 'desk',
    versions: { v1: {}, v2: {}, v3: {} },
    collections: { agents: collection({ fields: { id: f.id() }, ...options } as Options) },
    ...more,
  });
  checkApi(buildApi(def, 'api.ts', bag), bag);
  return bag.items.map((d) => `${d.code} ${d.message}`);
}

const FIRST = 'is removed in v1, the first version, so it holds in no version; leave it out, or name a later version.';

describe('an entry that exists in no version', () => {
  it('an operation or an event of a collection', () => {
    expect(problems({ operations: ['get', { name: 'list', addedIn: 'v3', removedIn: 'v2' }] })).toEqual([
      "RG151 agents: operation 'list' is removed in v2 but only added in v3; removedIn must name a later version.",
    ]);
    expect(problems({ events: [{ name: 'created', removedIn: 'v1' }] })).toEqual([`RG163 agents: event 'created' ${FIRST}`]);
  });

  it('a field, a transition, a custom event', () => {
    expect(problems({ fields: { id: f.id(), note: f.string().optional().removedIn('v1') } })).toEqual([`RG163 agents.note ${FIRST}`]);
    expect(problems({ fields: { id: f.id(), note: f.string().optional().addedIn('v3').removedIn('v2') } })).toEqual([
      'RG151 agents.note is removed in v2 but only added in v3; removedIn must name a later version.',
    ]);
    expect(
      problems({
        fields: { id: f.id(), state: f.enum(['open', 'closed']).readOnly() },
        lifecycle: { field: 'state', initial: 'open', transitions: { close: { from: ['open'], to: 'closed', removedIn: 'v1' } } },
      }),
    ).toEqual([`RG163 agents:close ${FIRST}`]);
    expect(problems({}, { events: { 'desk.cleaned': { payload: { id: f.string() }, removedIn: 'v1' } } })).toEqual([`RG163 event desk.cleaned ${FIRST}`]);
  });

  describe('a collection', () => {
    const tmp = tempDir('empty-range');
    afterAll(tmp.cleanup);

    it('is refused before anything is generated (it used to stop generate with an internal error)', async () => {
      writeFiles(tmp.dir, {
        'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'desk',
  versions: { v1: {}, v2: {} },
  collections: {
    agents: collection({ fields: { id: f.id() } }),
    gone: collection({ fields: { id: f.id() } }).removedIn('v1'),
  },
});
`,
      });
      const result = await generate({ apiPath: `${tmp.dir}/api.ts` });
      expect(result.ok).toBe(false);
      expect(result.written).toEqual([]);
      expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([`RG163 gone ${FIRST}`]);
    });
  });
});
