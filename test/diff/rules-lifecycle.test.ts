/**
 * One test per lifecycle rule of the diff: transitions added (safe) and removed (breaking), `from` states
 * narrowed (breaking) or widened (safe), target changed (breaking), states added and removed (like enum
 * values), a transition's scopes and rate limit, its input fields by the request rules, the initial
 * state, and If-Match becoming required. Both one version edited (a released version against itself, as
 * the lock and `--base` see it) and two versions of one definition.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { LifecycleDef } from '../../generator/dsl/index.ts';
import { apiAtOfContract, contractOf } from '../../generator/lock/contract.ts';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import { compareWithLock } from '../../generator/lock/compare-lock.ts';
import { project } from '../../generator/model/project.ts';
import { apiWith, diffBetween, diffEdit, irOf, summary } from './helpers.ts';

const STATUS = f.enum(['open', 'paid', 'shipped', 'cancelled']).readOnly().filterable();

/** `items` with a status and a lifecycle; `transitions` replaces the default ones. */
function withLifecycle(transitions: LifecycleDef['transitions'] = {}, extra: Partial<LifecycleDef> = {}, status: { readonly def: typeof STATUS.def } = STATUS) {
  const lifecycle: LifecycleDef = {
    field: 'status',
    initial: 'open',
    transitions: {
      pay: { from: ['open'], to: 'paid' },
      ship: { from: ['paid'], to: 'shipped', input: { carrier: f.string().max(40) } },
      cancel: { from: ['open', 'paid'], to: 'cancelled' },
      ...transitions,
    },
    ...extra,
  };
  return apiWith({ status }, { collection: { lifecycle } });
}

describe('transitions', () => {
  it('added: safe; removed: breaking, naming the custom method', () => {
    const base = withLifecycle();
    const more = withLifecycle({ reopen: { from: ['cancelled'], to: 'open' } });
    const added = diffEdit(base, more);
    expect(summary(added)).toEqual([{ id: 'transition-added', level: 'safe', location: 'items:reopen' }]);
    expect(added[0]!.affects).toEqual({ routes: ['POST /v1/items/{id}:reopen'], client: ['v1.items.reopen'], mcp: ['items_reopen'] });
    const removed = diffEdit(more, base);
    expect(summary(removed)).toEqual([{ id: 'transition-removed', level: 'breaking', location: 'items:reopen' }]);
    expect(removed[0]!.direction).toBe('both');
  });

  it('from narrowed: breaking (calls from the dropped state now answer 409); widened: safe', () => {
    const wide = withLifecycle({ cancel: { from: ['open', 'paid'], to: 'cancelled' } });
    const narrow = withLifecycle({ cancel: { from: ['open'], to: 'cancelled' } });
    const narrowed = diffEdit(wide, narrow);
    expect(summary(narrowed)).toEqual([{ id: 'transition-from-narrowed', level: 'breaking', location: 'items:cancel' }]);
    expect(narrowed[0]!.message).toContain("no longer starts from 'paid'");
    expect(narrowed[0]!.direction).toBe('request');
    expect(summary(diffEdit(narrow, wide))).toEqual([{ id: 'transition-from-widened', level: 'safe', location: 'items:cancel' }]);
  });

  it('target changed: breaking', () => {
    const found = diffEdit(withLifecycle(), withLifecycle({ cancel: { from: ['open', 'paid'], to: 'shipped' }, drop: { from: ['paid'], to: 'cancelled' } }));
    expect(summary(found)).toContainEqual({ id: 'transition-target-changed', level: 'breaking', location: 'items:cancel' });
    expect(found.find((x) => x.id === 'transition-target-changed')!.changes).toEqual([{ aspect: 'to', before: 'cancelled', after: 'shipped' }]);
  });

  it('a scope added to a transition: breaking; removed: safe', () => {
    const own = withLifecycle({ cancel: { from: ['open', 'paid'], to: 'cancelled', scopes: ['items:cancel'] } });
    const more = withLifecycle({ cancel: { from: ['open', 'paid'], to: 'cancelled', scopes: ['items:cancel', 'items:admin'] } });
    expect(summary(diffEdit(own, more))).toEqual([{ id: 'scope-added', level: 'breaking', location: 'items:cancel' }]);
    expect(summary(diffEdit(more, own))).toEqual([{ id: 'scope-removed', level: 'safe', location: 'items:cancel' }]);
  });

  it("a transition's own rate limit lowered: warning; raised or removed: safe", () => {
    const limited = withLifecycle({ cancel: { from: ['open', 'paid'], to: 'cancelled', rateLimit: { limit: 10, window: '1m' } } });
    const lower = withLifecycle({ cancel: { from: ['open', 'paid'], to: 'cancelled', rateLimit: { limit: 5, window: '1m' } } });
    expect(summary(diffEdit(limited, lower))).toEqual([{ id: 'rate-limit-lowered', level: 'warning', location: 'items:cancel' }]);
    expect(summary(diffEdit(limited, withLifecycle()))).toEqual([{ id: 'rate-limit-raised', level: 'safe', location: 'items:cancel' }]);
  });
});

describe('input fields follow the request rules', () => {
  const ship = (input: Record<string, ReturnType<typeof f.string>>) => withLifecycle({ ship: { from: ['paid'], to: 'shipped', input } });
  it('a required input field added: breaking; an optional one: safe', () => {
    const found = diffEdit(ship({ carrier: f.string() }), ship({ carrier: f.string(), tracking: f.string() }));
    expect(summary(found)).toEqual([{ id: 'request-required-field-added', level: 'breaking', location: 'items:ship.tracking' }]);
    expect(found[0]!.affects.routes).toEqual(['POST /v1/items/{id}:ship']);
    expect(summary(diffEdit(ship({ carrier: f.string() }), ship({ carrier: f.string(), tracking: f.string().optional() })))).toEqual([
      { id: 'optional-field-added', level: 'safe', location: 'items:ship.tracking' },
    ]);
  });
  it('an input bound tightened: breaking; loosened: safe (requests only)', () => {
    expect(summary(diffEdit(ship({ carrier: f.string().max(40) }), ship({ carrier: f.string().max(20) })))).toEqual([
      { id: 'request-bound-tightened', level: 'breaking', location: 'items:ship.carrier' },
    ]);
    expect(summary(diffEdit(ship({ carrier: f.string().max(20) }), ship({ carrier: f.string().max(40) })))).toEqual([
      { id: 'request-bound-loosened', level: 'safe', location: 'items:ship.carrier' },
    ]);
  });
  it('an input field removed: breaking (bodies are strict)', () => {
    expect(summary(diffEdit(ship({ carrier: f.string(), note: f.string().optional() }), ship({ carrier: f.string() })))).toEqual([
      { id: 'request-optional-field-removed', level: 'breaking', location: 'items:ship.note' },
    ]);
  });
});

describe('states, initial state and If-Match', () => {
  it('a state added: warning for responses (like an enum value); removed: breaking for the list filter', () => {
    const more = f.enum(['open', 'paid', 'shipped', 'cancelled', 'lost']).readOnly().filterable();
    const found = diffEdit(withLifecycle(), withLifecycle({ lose: { from: ['shipped'], to: 'lost' } }, {}, more));
    expect(summary(found)).toEqual([
      { id: 'response-state-added', level: 'warning', location: 'items.status' },
      { id: 'transition-added', level: 'safe', location: 'items:lose' },
    ]);
    // Responses of every operation and transition that answers an item carry the state.
    expect(found[0]!.affects.routes).toContain('POST /v1/items/{id}:pay');
    const removed = diffEdit(withLifecycle({ lose: { from: ['shipped'], to: 'lost' } }, {}, more), withLifecycle());
    expect(summary(removed)).toContainEqual({ id: 'request-state-removed', level: 'breaking', location: 'items.status' });
  });

  it('a state added in a later version with valueAddedIn: the versions differ by a state-added warning', () => {
    const api = irOf(
      defineApi({
        name: 'test',
        versions: { v1: { released: '2026-01-01' }, v2: {} },
        auth: { bearer: {} },
        collections: {
          items: collection({
            fields: { id: f.id(), status: f.enum(['open', 'done', 'archived']).readOnly().valueAddedIn('v2', 'archived', { fallback: 'done' }) },
            lifecycle: {
              field: 'status',
              initial: 'open',
              transitions: { finish: { from: ['open'], to: 'done' }, archive: { from: ['done'], to: 'archived', addedIn: 'v2' } },
            },
          }),
        },
      }),
    );
    expect(summary(diffBetween(api, 'v1', 'v2'))).toEqual([
      { id: 'response-state-added', level: 'warning', location: 'items.status' },
      { id: 'transition-added', level: 'safe', location: 'items:archive' },
    ]);
  });

  it('the initial state changed: warning', () => {
    const found = diffEdit(withLifecycle(), withLifecycle({ reopen: { from: ['paid'], to: 'open' } }, { initial: 'paid' }));
    expect(summary(found)).toContainEqual({ id: 'initial-state-changed', level: 'warning', location: 'items.status' });
  });

  it('If-Match became required: breaking for every write and transition; no longer required: safe', () => {
    const status = f.enum(['open', 'paid']).readOnly();
    const lifecycle: LifecycleDef = { field: 'status', initial: 'open', transitions: { pay: { from: ['open'], to: 'paid' } } };
    const strict = apiWith({ status }, { collection: { requireIfMatch: true, lifecycle } });
    const loose = apiWith({ status }, { collection: { lifecycle } });
    const found = diffEdit(loose, strict);
    expect(summary(found)).toEqual([{ id: 'if-match-required', level: 'breaking', location: 'items' }]);
    expect(found[0]!.affects.routes).toEqual(['PUT /v1/items/{id}', 'PATCH /v1/items/{id}', 'DELETE /v1/items/{id}', 'POST /v1/items/{id}:pay']);
    expect(summary(diffEdit(strict, loose))).toEqual([{ id: 'if-match-no-longer-required', level: 'safe', location: 'items' }]);
  });
});

describe('the lock sees lifecycles', () => {
  it('a locked contract keeps the lifecycle: removing a transition from a released version is RG180', () => {
    const locked = withLifecycle();
    const contract = contractOf(locked, 'v1');
    expect(contract.collections[0]!.lifecycle).toMatchObject({
      field: 'status',
      initial: 'open',
      transitions: [{ name: 'cancel', from: ['open', 'paid'] }, { name: 'pay' }, { name: 'ship' }],
    });
    // The contract read back compares equal to the projection it came from.
    expect(diffApis(apiAtOfContract('test', contract, 'restgen.lock.json'), project(locked, 'v1'), { match: 'name' })).toEqual([]);
    const lock = { lockfileVersion: 1 as const, api: 'test', versions: { v1: contract } };
    const edited = withLifecycle({ cancel: { from: ['open'], to: 'cancelled' } });
    const judged = compareWithLock(edited, lock);
    expect(judged.diagnostics.map((d) => d.code)).toEqual(['RG180']);
    expect(judged.diagnostics[0]!.message).toContain('transition-from-narrowed');
    expect(judged.diagnostics[0]!.message).toContain("removedIn: 'v2'");
    // A transition added to a released version is safe: the lock takes it.
    const added = compareWithLock(withLifecycle({ reopen: { from: ['cancelled'], to: 'open' } }), lock);
    expect(added.diagnostics).toEqual([]);
    expect(added.findings.map((x) => x.id)).toEqual(['transition-added']);
  });
});
