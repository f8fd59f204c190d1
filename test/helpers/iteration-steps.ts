/**
 * @module Test helper: a measure of work that does not depend on the machine. Walking a collection in JavaScript
 * (`for...of`, spread, `Array.from`, destructuring) steps a Map, Set or Array iterator once per element; counting
 * those steps while a piece of code runs shows whether it walks every record it holds, without timing it.
 */

/** The prototypes whose `next` a walk over a Map, a Set or an Array calls. */
const ITERATORS: readonly { next: () => unknown }[] = [new Map().entries(), new Set().values(), [][Symbol.iterator]()].map(
  (it) => Object.getPrototypeOf(it) as { next: () => unknown },
);

/** Runs `run` and counts the iterator steps it takes (every Map, Set and Array iterator, meanwhile). */
export async function iterationSteps(run: () => unknown): Promise<number> {
  let steps = 0;
  const originals = ITERATORS.map((proto) => proto.next);
  ITERATORS.forEach((proto, i) => {
    const next = originals[i]!;
    proto.next = function counted(this: unknown) {
      steps++;
      return next.call(this);
    };
  });
  try {
    await run();
    return steps;
  } finally {
    ITERATORS.forEach((proto, i) => (proto.next = originals[i]!));
  }
}
