/**
 * @module Whether an installed version satisfies a caret range (`^0.1.0`, `^1.2.3`), the only kind of range restgen
 * asks for (the runtime package's). Written out rather than loading a semver library on every `generate`: that
 * library's modules cost more to load than the whole check of an unchanged project. Pre-releases satisfy only a
 * range of the same major.minor.patch, as npm decides; anything that is not `x.y.z[-pre][+build]` does not satisfy.
 */

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

interface Parsed {
  readonly parts: readonly [number, number, number];
  readonly pre: string | undefined;
}

function parse(text: string): Parsed | undefined {
  const m = VERSION.exec(text.trim());
  return m ? { parts: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] } : undefined;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (pre-releases below their release; identifiers compared as npm does). */
function compare(a: Parsed, b: Parsed): number {
  for (let i = 0; i < 3; i++) if (a.parts[i] !== b.parts[i]) return a.parts[i]! < b.parts[i]! ? -1 : 1;
  if (a.pre === b.pre) return 0;
  if (a.pre === undefined) return 1;
  if (b.pre === undefined) return -1;
  const [x, y] = [a.pre.split('.'), b.pre.split('.')];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const [p, q] = [x[i], y[i]];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const [np, nq] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (np && nq) return Number(p) < Number(q) ? -1 : 1;
    if (np !== nq) return np ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** True when `version` satisfies the caret range `range` (`^0.1.0`: >=0.1.0 <0.2.0; `^1.2.3`: >=1.2.3 <2.0.0). */
export function satisfiesCaret(version: string, range: string): boolean {
  const v = parse(version);
  const base = range.startsWith('^') ? parse(range.slice(1)) : undefined;
  if (!v || !base) return false;
  if (v.pre !== undefined && (base.pre === undefined || v.parts.some((n, i) => n !== base.parts[i]))) return false;
  const [major, minor, patch] = base.parts;
  const upper: Parsed = { parts: major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1], pre: '0' };
  return compare(v, base) >= 0 && compare(v, upper) < 0;
}
