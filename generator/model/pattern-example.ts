/**
 * @module A valid example of a pattern-constrained string, derived from the pattern itself, so that every
 * OpenAPI document can show one without the user writing it. Deterministic: the first character of each
 * class, quantifiers repeated as few times as the length bounds allow. Patterns beyond this small regex
 * subset (lookaround, back-references, word boundaries, Unicode properties) derive nothing: the field then
 * needs `.example(value)` (RG190).
 */

/** One piece of a pattern: a choice of sequences, a character set, or an anchor. */
type Node =
  | { readonly kind: 'alt'; readonly options: readonly (readonly Quantified[])[] }
  | { readonly kind: 'char'; readonly pick: string }
  | { readonly kind: 'empty' };
interface Quantified {
  readonly node: Node;
  readonly min: number;
  readonly max: number;
}

class Unsupported extends Error {}

/** The characters tried, in order, for a negated class or `.`. */
const CANDIDATES = 'aA0-_ .x';
const ESCAPES: Readonly<Record<string, string>> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', n: '\n', t: '\t', r: '\r' };

/** Parses the subset; throws {@link Unsupported} for anything else. */
function parse(pattern: string): Node {
  let at = 0;
  const peek = () => pattern[at];
  const escaped = (inClass: boolean): string | { set: string } => {
    const c = pattern[at++];
    if (c === undefined) throw new Unsupported();
    if (/[1-9bBpPkcux0]/.test(c)) throw new Unsupported();
    if (inClass && c === 'b') return '\b';
    if (c in ESCAPES && /[dwsDWS]/.test(c)) return { set: c };
    return ESCAPES[c] ?? c;
  };
  const classNode = (): Node => {
    const negated = peek() === '^';
    if (negated) at++;
    const singles: string[] = [];
    const tests: ((ch: string) => boolean)[] = [];
    let first = true;
    while (peek() !== ']' || first) {
      first = false;
      let c = pattern[at++];
      if (c === undefined) throw new Unsupported();
      let lo: string;
      if (c === '\\') {
        const e = escaped(true);
        if (typeof e !== 'string') {
          const re = new RegExp(`\\${e.set}`);
          tests.push((ch) => re.test(ch));
          singles.push(ESCAPES[e.set]!);
          continue;
        }
        lo = e;
      } else lo = c;
      if (peek() === '-' && pattern[at + 1] !== ']' && pattern[at + 1] !== undefined) {
        at++;
        c = pattern[at++]!;
        const hi = c === '\\' ? escaped(true) : c;
        if (typeof hi !== 'string') throw new Unsupported();
        const [a, b] = [lo.charCodeAt(0), hi.charCodeAt(0)];
        tests.push((ch) => ch.charCodeAt(0) >= a && ch.charCodeAt(0) <= b);
        singles.push(lo);
      } else {
        tests.push((ch) => ch === lo);
        singles.push(lo);
      }
    }
    at++;
    if (!negated) return { kind: 'char', pick: singles[0] ?? '' };
    const pick = [...CANDIDATES].find((ch) => !tests.some((t) => t(ch)));
    if (pick === undefined) throw new Unsupported();
    return { kind: 'char', pick };
  };
  const atom = (): Node => {
    const c = pattern[at++]!;
    switch (c) {
      case '(': {
        if (peek() === '?') {
          if (pattern[at + 1] !== ':') throw new Unsupported();
          at += 2;
        }
        const inner = alternation();
        if (pattern[at++] !== ')') throw new Unsupported();
        return inner;
      }
      case '[':
        return classNode();
      case '\\': {
        const e = escaped(false);
        return { kind: 'char', pick: typeof e === 'string' ? e : ESCAPES[e.set]! };
      }
      case '.':
        return { kind: 'char', pick: 'a' };
      case '^':
      case '$':
        return { kind: 'empty' };
      default:
        if ('*+?{})|'.includes(c)) throw new Unsupported();
        return { kind: 'char', pick: c };
    }
  };
  const quantifier = (): [number, number] => {
    const c = peek();
    let bounds: [number, number] = [1, 1];
    if (c === '*') bounds = [0, Infinity];
    else if (c === '+') bounds = [1, Infinity];
    else if (c === '?') bounds = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
      if (!m) throw new Unsupported();
      at += m[0].length - 1;
      bounds = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])];
    } else return bounds;
    at++;
    if (peek() === '?') at++;
    return bounds;
  };
  const sequence = (): Quantified[] => {
    const items: Quantified[] = [];
    while (at < pattern.length && peek() !== '|' && peek() !== ')') {
      const node = atom();
      const [min, max] = quantifier();
      items.push({ node, min, max });
    }
    return items;
  };
  const alternation = (): Node => {
    const options = [sequence()];
    while (peek() === '|') {
      at++;
      options.push(sequence());
    }
    return { kind: 'alt', options };
  };
  const root = alternation();
  if (at !== pattern.length) throw new Unsupported();
  return root;
}

/** The string a node makes when every quantifier repeats `k` times within its bounds. */
function render(node: Node, k: number): string {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'char':
      return node.pick;
    case 'alt':
      return node.options[0]!.map((q) => render(q.node, 1).repeat(Math.min(q.max, Math.max(q.min, k)))).join('');
  }
}

/**
 * A string that matches `pattern` and has a length between `min` and `max`, or null when none can be
 * derived (the pattern uses more than this subset, or the bounds cannot be met this way).
 */
export function exampleOfPattern(pattern: string, min = 0, max = Infinity): string | null {
  // Asked once per field when the model is built and again by the OpenAPI documents: fields share patterns.
  const key = `${min}\0${max}\0${pattern}`;
  let known = derived.get(key);
  if (known === undefined) derived.set(key, (known = deriveExample(pattern, min, max)));
  return known;
}

const derived = new Map<string, string | null>();

function deriveExample(pattern: string, min: number, max: number): string | null {
  let root: Node;
  try {
    root = parse(pattern);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  const regex = new RegExp(pattern);
  const tries = [0, 1, 2, 3, 4, 5, 6, 7, 8, min, min + 1, 16, 32, 64, 128, 256].filter((k) => k <= 256);
  for (const k of [...new Set(tries)].sort((a, b) => a - b)) {
    const text = render(root, k);
    if (text.length >= min && text.length <= max && regex.test(text)) return text;
  }
  return null;
}
