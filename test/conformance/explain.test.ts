/**
 * The judge of concurrent transitions: answers and a final state are accepted exactly when some sequential
 * order of the transitions gives them (the shop's order lifecycle: pay open → paid, ship paid → shipped,
 * cancel open|paid → cancelled).
 */
import { describe, expect, it } from 'vitest';
import { explain, type Move } from '../../packages/conformance/src/checks/explain.ts';

const pay = (succeeded: boolean): Move => ({ from: ['open'], to: 'paid', succeeded });
const ship = (succeeded: boolean): Move => ({ from: ['paid'], to: 'shipped', succeeded });
const cancel = (succeeded: boolean): Move => ({ from: ['open', 'paid'], to: 'cancelled', succeeded });

describe('explain', () => {
  it('accepts one successful pay among five, and refuses two', () => {
    expect(explain('open', [pay(false), pay(true), pay(false), pay(false), pay(false)], 'paid')).toEqual([1, 0, 2, 3, 4]);
    expect(explain('open', [pay(true), pay(true), pay(false), pay(false), pay(false)], 'paid')).toBeNull();
    expect(explain('open', [pay(false), pay(false)], 'paid')).toBeNull();
  });

  it('ship and cancel from paid rule each other out: exactly one of them succeeds, and the state says which', () => {
    expect(explain('paid', [ship(true), cancel(false), ship(false), cancel(false)], 'shipped')).not.toBeNull();
    expect(explain('paid', [ship(false), cancel(true), ship(false), cancel(false)], 'cancelled')).not.toBeNull();
    expect(explain('paid', [ship(true), cancel(true), ship(false), cancel(false)], 'cancelled')).toBeNull();
    expect(explain('paid', [ship(true), cancel(false)], 'cancelled')).toBeNull();
  });

  it('pay then cancel may both succeed from open; cancel then pay may not', () => {
    expect(explain('open', [cancel(true), pay(true), pay(false)], 'cancelled')).toEqual([1, 0, 2]);
    expect(explain('open', [cancel(true), pay(true)], 'paid')).toBeNull();
  });

  it('a refused transition needs a state it does not start from at some point', () => {
    expect(explain('open', [pay(false)], 'open')).toBeNull();
    expect(explain('open', [cancel(false), pay(true)], 'paid')).toBeNull();
  });

  it('stays cheap for the most concurrent requests the command allows', () => {
    const moves = Array.from({ length: 30 }, (_, i) => pay(i === 29));
    expect(explain('open', moves, 'paid')?.[0]).toBe(29);
    expect(
      explain(
        'open',
        Array.from({ length: 30 }, () => pay(true)),
        'paid',
      ),
    ).toBeNull();
  });
});
