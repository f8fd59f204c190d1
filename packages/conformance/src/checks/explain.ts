/**
 * @module Whether the answers to concurrent transitions on one resource, and the state it ended in, are what
 * some sequential order of those transitions gives: in that order each one that succeeded started from one
 * of its `from` states (and moved the resource to its `to`), and each one refused with 409 found the resource
 * in a state it does not start from. A depth-first search over the orders, remembering the (state, requests
 * done) pairs already ruled out, so N up to 30 stays cheap.
 */

/** One concurrent transition request and how it was answered. */
export interface Move {
  readonly from: readonly string[];
  readonly to: string;
  readonly succeeded: boolean;
}

/** An order of `moves` (their indexes) that explains the answers and ends in `end`, or null when none does. */
export function explain(start: string, moves: readonly Move[], end: string): number[] | null {
  if (moves.length > 30) throw new RangeError('explain(): at most 30 moves');
  const ruledOut = new Set<string>();
  const order: number[] = [];
  const search = (state: string, done: number): boolean => {
    if (done === (1 << moves.length) - 1) return state === end;
    const key = `${state}\0${done}`;
    if (ruledOut.has(key)) return false;
    for (let i = 0; i < moves.length; i++) {
      if (done & (1 << i)) continue;
      const m = moves[i]!;
      const allowed = m.from.includes(state);
      if (allowed !== m.succeeded) continue;
      order.push(i);
      if (search(allowed ? m.to : state, done | (1 << i))) return true;
      order.pop();
    }
    ruledOut.add(key);
    return false;
  };
  return search(start, 0) ? order : null;
}
