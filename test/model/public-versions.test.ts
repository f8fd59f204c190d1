/**
 * `public` entries that hold in some versions only (`{ name: 'list', removedIn: 'v2' }`): how they are read and
 * reported, which scopes they leave required (RG305), and what the lock of released versions says of them.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { compareWithLock } from '../../generator/lock/index.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { unusedScopes } from '../../generator/model/check-scopes.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';

type Public = NonNullable<Parameters<typeof collection>[0]['public']>;

/** The desk API: v1 released, v2 not; agents readable as `open` says, `agents:read` its read scope. */
function desk(open: Public | readonly unknown[], released: readonly string[] = ['v1']): { ir: ApiIR; diagnostics: string[] } {
  const versions = Object.fromEntries(['v1', 'v2'].map((v) => [v, released.includes(v) ? { released: '2026-01-01' } : {}]));
  const def = defineApi({
    name: 'desk',
    versions,
    auth: {
      oauth2: {
        flows: { clientCredentials: { tokenUrl: 'https://id.example.com/token' } },
        scopes: { 'agents:read': 'Read agents', 'agents:write': 'Change agents' },
      },
    },
    collections: {
      agents: collection({ fields: { id: f.id(), name: f.string() }, scopes: { read: 'agents:read', write: 'agents:write' }, public: open as Public }),
    },
  });
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'api.ts', bag);
  checkApi(ir, bag);
  return { ir, diagnostics: bag.items.map((d) => `${d.code} ${d.message}`) };
}

const publicIn = (ir: ApiIR, version: string) => project(ir, version).collections[0]!.public;

describe('public operations per version', () => {
  it('an entry holds in the versions it names; a plain name in every version', () => {
    const { ir, diagnostics } = desk([{ name: 'list', removedIn: 'v2' }, { name: 'get', addedIn: 'v2' }, 'delete']);
    expect(diagnostics).toEqual([]);
    expect(publicIn(ir, 'v1')).toEqual(['list', 'delete']);
    expect(publicIn(ir, 'v2')).toEqual(['get', 'delete']);
  });

  it('a mistaken entry is reported once, naming the public list', () => {
    expect(desk([{ name: 'list', removedIn: 'v9' }]).diagnostics).toEqual([
      "RG150 agents: operation 'list' in public names unknown version 'v9'; the API declares v1, v2.",
    ]);
    expect(desk(['lst']).diagnostics).toEqual([
      "RG115 agents: unknown operation 'lst' in public (did you mean 'list'?); the operations are list, get, create, replace, update, delete.",
    ]);
    expect(desk(['get', { name: 'get', removedIn: 'v2' }]).diagnostics).toEqual(["RG116 agents: operation 'get' is listed twice in public; keep one."]);
    expect(desk([42]).diagnostics).toEqual(['RG175 agents: public[0] must be an operation name or { name, addedIn, removedIn } (got the number 42).']);
  });

  it('an entry that holds in no version is a mistake in its versions (test/model/empty-ranges.test.ts has the others)', () => {
    expect(desk([{ name: 'list', removedIn: 'v1' }]).diagnostics).toEqual([
      "RG163 agents: operation 'list' in public is removed in v1, the first version, so it holds in no version; leave it out, or name a later version.",
    ]);
    expect(desk([{ name: 'list', addedIn: 'v2', removedIn: 'v2' }]).diagnostics).toEqual([
      "RG151 agents: operation 'list' in public is removed in v2 but only added in v2; removedIn must name a later version.",
    ]);
  });

  it('a read scope guarding an operation in some version is required: no RG305; public in every version, it is', () => {
    expect(
      unusedScopes(
        desk([
          { name: 'list', removedIn: 'v2' },
          { name: 'get', removedIn: 'v2' },
        ]).ir,
        'api.ts',
      ),
    ).toEqual([]);
    expect(unusedScopes(desk(['list', 'get']).ir, 'api.ts').map((d) => d.message)).toEqual([
      expect.stringContaining("'agents:read' is declared, and agents names it, but the operations it would guard are public"),
    ]);
  });
});

describe('the lock and public operations', () => {
  const lock = compareWithLock(desk(['list', 'get']).ir, undefined).nextLock;

  it('asking for a credential from an unreleased version on leaves the released one as locked', () => {
    const result = compareWithLock(
      desk([
        { name: 'list', removedIn: 'v2' },
        { name: 'get', removedIn: 'v2' },
      ]).ir,
      lock,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.changed).toBe(false);
  });

  it('asking for it in the released version is refused, naming the entry that makes it properly', () => {
    const [refusal, ...more] = compareWithLock(desk(['get']).ir, lock).diagnostics;
    expect(more).toEqual([]);
    expect(refusal?.code).toBe('RG180');
    expect(refusal?.message).toBe(
      "v1 is released and frozen, but agents: list now needs a credential with scope agents:read (operation-no-longer-public, breaking); make the change in a new version: keep it public until 'v2': list it as { name: '<operation>', removedIn: 'v2' } in public; or pass --accept-breaking to record a deliberate break.",
    );
  });

  it('a setting that is not versioned says so, and names --accept-breaking once', () => {
    const limited = (limit: number) => {
      const def = defineApi({
        name: 'desk',
        versions: { v1: { released: '2026-01-01' }, v2: {} },
        collections: { agents: collection({ fields: { id: f.id() }, pagination: { defaultLimit: 10, maxLimit: limit } }) },
      });
      return buildApi(def, 'api.ts', new DiagnosticBag());
    };
    const [refusal] = compareWithLock(limited(50), compareWithLock(limited(100), undefined).nextLock).diagnostics;
    expect(refusal?.message).toContain(
      "this setting is not versioned, so it cannot change while a released version has it; keep it as it is, or serve the changed agents as a new collection from 'v2'",
    );
    expect(refusal?.message.match(/--accept-breaking/g)).toHaveLength(1);
  });
});

describe('the lock and events', () => {
  it('removing an event from a released version names the entry that removes it from a new version', () => {
    const api = (events: readonly unknown[]) =>
      buildApi(
        defineApi({
          name: 'desk',
          versions: { v1: { released: '2026-01-01' }, v2: {} },
          collections: { agents: collection({ fields: { id: f.id() }, events: events as ['created'] }) },
        }),
        'api.ts',
        new DiagnosticBag(),
      );
    const lock = compareWithLock(api(['created', 'deleted']), undefined).nextLock;
    const messages = compareWithLock(api(['created']), lock).diagnostics.map((d) => d.message);
    expect(messages).toEqual([
      "v1 is released and frozen, but the agent.deleted event is no longer sent (event-removed, breaking); make the change in a new version: keep sending it until 'v2': list it as { name: '<event>', removedIn: 'v2' } in the collection's events (a custom event: removedIn: 'v2'); or pass --accept-breaking to record a deliberate break.",
    ]);
    // As the advice says: v1 keeps the event, v2 no longer sends it.
    expect(compareWithLock(api(['created', { name: 'deleted', removedIn: 'v2' }]), lock).diagnostics).toEqual([]);
  });
});
