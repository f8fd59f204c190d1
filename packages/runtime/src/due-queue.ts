/**
 * Ids by due time, earliest first (ties by the `order` they were pushed with): a binary heap, so a poll that
 * finds nothing due costs one comparison and taking k due ids costs O(k log n), however many wait. Entries
 * are never removed in place: each carries the `seq` it was pushed with, and whoever pops an entry whose id
 * has since been pushed again (or forgotten) skips it.
 */

/** One entry: the id, when it is due (ms), its rank among equal times, and the sequence number it was pushed with. */
export interface Due {
  readonly id: string;
  readonly at: number;
  readonly order: number;
  readonly seq: number;
}

const before = (a: Due, b: Due): boolean => a.at < b.at || (a.at === b.at && a.order < b.order);

/** A min-heap of {@link Due} entries. */
export class DueQueue {
  readonly #heap: Due[] = [];
  #seq = 0;

  /** Entries held, stale ones included. */
  get size(): number {
    return this.#heap.length;
  }

  /** Pushes `id` due at `at`, ranked by `order` among equal times; returns the entry's sequence number. */
  push(id: string, at: number, order: number): number {
    const entry = { id, at, order, seq: ++this.#seq };
    this.#insert(entry);
    return entry.seq;
  }

  /** Puts back an entry {@link pop} returned, as it was (its sequence number still names it). */
  restore(entry: Due): void {
    this.#insert(entry);
  }

  #insert(entry: Due): void {
    const heap = this.#heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  /** The earliest entry, without removing it. */
  peek(): Due | undefined {
    return this.#heap[0];
  }

  /** Removes and returns the earliest entry. */
  pop(): Due | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
