/**
 * The DSL's types reject nonsense at compile time (checked by `tsc --noEmit` over this file) and keep
 * value types for defaults.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { collection, defineApi, defineConfig, f, type ValueOf } from '../../generator/dsl/index.ts';

describe('DSL types', () => {
  it('offers only the modifiers a kind has', () => {
    // @ts-expect-error an int has no pattern
    f.int().pattern(/x/);
    // @ts-expect-error a boolean has no min
    f.boolean().min(1);
    // @ts-expect-error an enum default must be one of its values
    f.enum(['free', 'pro']).default('gold');
    // @ts-expect-error a string default must be a string
    f.string().default(3);
    // @ts-expect-error builders and flag modifiers take no arguments
    f.string('name');
    // @ts-expect-error optional() takes no argument
    f.string().optional(false);
    // @ts-expect-error a collection takes its options only
    collection({ fields: { id: f.id() } }, 'orders');
    // @ts-expect-error unknown options are rejected
    collection({ fields: { id: f.id() }, operation: ['list'] });
    // @ts-expect-error a field builder must be called
    collection({ fields: { id: f.id(), name: f.string } });
    // @ts-expect-error a collection must be wrapped in collection()
    defineApi({ name: 'x', versions: { v1: {} }, collections: { things: { fields: { id: f.id() } } } });
    // @ts-expect-error removedIn's options need a fallback
    f.string().optional().removedIn('v2', {});
    // @ts-expect-error parts are checked by name
    defineConfig({ generate: ['sever'] });
    expect(f.string().min(1).def).toMatchObject({ kind: 'string', min: 1 });
  });

  it('types a lifecycle from the collection fields: the field, its states, and values added later', () => {
    const status = f.enum(['open', 'paid', 'cancelled']).readOnly();
    const fine = collection({
      fields: { id: f.id(), status },
      lifecycle: { field: 'status', initial: 'open', transitions: { pay: { from: ['open'], to: 'paid', input: { amount: f.int() } } } },
    });
    // @ts-expect-error the initial state must be a value of the field
    collection({ fields: { id: f.id(), status }, lifecycle: { field: 'status', initial: 'new', transitions: {} } });
    collection({
      fields: { id: f.id(), status },
      // @ts-expect-error from names a state the field does not have
      lifecycle: { field: 'status', initial: 'open', transitions: { pay: { from: ['open', 'payed'], to: 'paid' } } },
    });
    // @ts-expect-error from needs at least one state
    collection({ fields: { id: f.id(), status }, lifecycle: { field: 'status', initial: 'open', transitions: { pay: { from: [], to: 'paid' } } } });
    // @ts-expect-error the lifecycle field must be one of the collection's fields
    collection({ fields: { id: f.id(), status }, lifecycle: { field: 'state', initial: 'open', transitions: {} } });
    // @ts-expect-error valueAddedIn takes one of the enum's values
    f.enum(['a', 'b']).valueAddedIn('v2', 'c', { fallback: 'a' });
    // @ts-expect-error valueAddedIn needs a fallback
    f.enum(['a', 'b']).valueAddedIn('v2', 'b');
    // @ts-expect-error only an enum has valueAddedIn
    f.string().valueAddedIn('v2', 'x', { fallback: 'y' });
    expect(fine.def.options.lifecycle).toMatchObject({ field: 'status', initial: 'open' });
    expect(f.enum(['a', 'b']).valueAddedIn('v2', 'b', { fallback: 'a' }).def.valuesAdded).toEqual([
      { version: 'v2', value: 'b', fallback: 'a', site: expect.anything() },
    ]);
  });

  it('infers value types, nested objects and arrays included', () => {
    const address = f.object({ zip: f.string(), floors: f.array(f.int()) });
    expectTypeOf<ValueOf<typeof address>>().toEqualTypeOf<{ zip: string; floors: number[] }>();
    expectTypeOf<ValueOf<ReturnType<typeof f.enum<'a' | 'b'>>>>().toEqualTypeOf<'a' | 'b'>();
  });

  it('builders are immutable: a modifier never changes the builder it was called on', () => {
    const base = f.string();
    const limited = base.max(3).optional();
    expect(base.def.max).toBeUndefined();
    expect(base.def.optional).toBeUndefined();
    expect(limited.def).toMatchObject({ max: 3, optional: true });
  });
});
