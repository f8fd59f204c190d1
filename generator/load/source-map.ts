/**
 * @module Reads a source map's `mappings` (the base64 VLQ of the source map format, ECMA-426) just far enough to
 * answer one question: which line of the original source does a position of the generated code come from.
 * It is decoded lazily, on the first question, because it is only asked when a diagnostic prints a line.
 */
import { decode } from '@jridgewell/sourcemap-codec';
import type { Position } from '../model/position.ts';

/** One mapped position: generated column (0-based) to original line and column (0-based). */
interface Segment {
  readonly column: number;
  readonly line: number;
  readonly sourceColumn: number;
}

/** Decodes a `mappings` string into segments per generated line, each line sorted by column. */
function decodeLines(mappings: string): Segment[][] {
  // [column, source, line, column, name?]: these maps have one source, and names do not matter here.
  return decode(mappings).map((segments) =>
    segments.flatMap((s) => (s.length >= 4 ? [{ column: s[0], line: s[2]!, sourceColumn: s[3]! }] : [])).sort((a, b) => a.column - b.column),
  );
}

/** Maps positions of generated code to positions of its source. */
export type PositionMap = (at: Position) => Position | undefined;

/**
 * A {@link PositionMap} for one source map's `mappings`: the segment of the generated line at or before the
 * column (else the line's first segment, else the nearest mapped line above).
 */
export function createPositionMap(mappings: string): PositionMap {
  let lines: Segment[][] | undefined;
  return ({ line, column }) => {
    lines ??= decodeLines(mappings);
    for (let l = Math.min(line, lines.length) - 1; l >= 0; l--) {
      const segments = lines[l]!;
      if (segments.length === 0) continue;
      let found = segments[0]!;
      if (l === line - 1) for (const s of segments) if (s.column <= column - 1) found = s;
      return { line: found.line + 1, column: found.sourceColumn + 1 };
    }
    return undefined;
  };
}

/** Both maps applied in turn: positions of the last generated code to the first source. */
export function chainPositionMaps(outer: PositionMap, inner: PositionMap): PositionMap {
  return (at) => {
    const middle = outer(at);
    return middle && inner(middle);
  };
}
