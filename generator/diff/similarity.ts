/**
 * @module How alike two names are, for pairing a removed field (or enum value) with an added one when
 * guessing renames. Names are split into words (camelCase, snake_case, kebab-case); words match exactly,
 * as a known synonym (`first` and `given`), as an abbreviation (`qty` and `quantity`), or by edit distance.
 * Position never matters, so `first`/`last` pair with `given`/`family` whatever order they were written in.
 */

/** Word pairs that name the same thing in API field names. Kept short: each entry has been seen renamed in the wild. */
const SYNONYMS: readonly (readonly string[])[] = [
  ['first', 'given', 'fore'],
  ['last', 'family', 'sur', 'surname'],
  ['mail', 'email'],
  ['phone', 'tel', 'telephone', 'mobile'],
  ['zip', 'postal', 'postcode'],
  ['amount', 'total', 'sum'],
  ['created', 'inserted'],
  ['updated', 'modified', 'changed'],
  ['remark', 'note', 'comment'],
  ['desc', 'description', 'summary'],
  ['count', 'quantity', 'qty', 'number'],
  ['price', 'cost'],
  ['id', 'key', 'ref'],
  ['url', 'link', 'href', 'uri'],
  ['name', 'title', 'label'],
];

/** The lowercase words of a name: `familyName` and `family_name` give `family`, `name`. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** Whether `short` is an abbreviation of `long`: its letters in order, starting with the same letter (`qty`, `quantity`). */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 2 || short.length >= long.length || short[0] !== long[0]) return false;
  let i = 0;
  for (const c of long) if (c === short[i]) i++;
  return i === short.length;
}

/** How alike two words are, 0 to 1. */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (SYNONYMS.some((group) => group.includes(a) && group.includes(b))) return 0.9;
  if (abbreviates(a, b) || abbreviates(b, a)) return 0.8;
  return Math.max(0, 1 - editDistance(a, b) / Math.max(a.length, b.length));
}

/**
 * How alike two names are, 0 (nothing in common) to 1 (the same words): each word of the shorter name is
 * matched with its most alike word of the other, and the average is weighed by how many words match.
 */
export function nameSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  const [short, long] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
  const used = new Set<number>();
  let total = 0;
  for (const w of short) {
    let best = 0;
    let at = -1;
    long.forEach((x, i) => {
      const s = used.has(i) ? 0 : wordSimilarity(w, x);
      if (s > best) (best = s), (at = i);
    });
    if (at >= 0) used.add(at);
    total += best;
  }
  return total / long.length;
}

/** A pairing candidate: indexes into the two lists and its score. */
export interface Pairing {
  readonly left: number;
  readonly right: number;
  readonly score: number;
}

/**
 * Pairs items of `left` with items of `right` greedily by score (highest first; ties by position), each
 * item at most once. `score` returns undefined for pairs that must never be made.
 */
export function pairBest<L, R>(left: readonly L[], right: readonly R[], score: (l: L, r: R) => number | undefined): Pairing[] {
  const all: Pairing[] = [];
  left.forEach((l, i) =>
    right.forEach((r, j) => {
      const s = score(l, r);
      if (s !== undefined) all.push({ left: i, right: j, score: s });
    }),
  );
  all.sort((x, y) => y.score - x.score || x.right - y.right || x.left - y.left);
  const usedL = new Set<number>();
  const usedR = new Set<number>();
  const out: Pairing[] = [];
  for (const p of all) {
    if (usedL.has(p.left) || usedR.has(p.right)) continue;
    usedL.add(p.left);
    usedR.add(p.right);
    out.push(p);
  }
  return out;
}
