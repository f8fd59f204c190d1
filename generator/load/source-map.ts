/**
 * @module Reads a source map's `mappings` (the base64 VLQ of the source map format, ECMA-426) just far enough to
 * answer one question: which line of the original source does a position of the generated code come from.
 * It is decoded lazily, on the first question, because it is only asked when a diagnostic prints a line.
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** One mapped position: generated column (0-based) to original line and column (0-based). */
interface Segment {
  readonly column: number;
  readonly line: number;
  readonly sourceColumn: number;
}

/** Decodes a `mappings` string into segments per generated line, each line sorted by column. */
function decode(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  let sourceLine = 0;
  let sourceColumn = 0;
  for (const text of mappings.split(';')) {
    const segments: Segment[] = [];
    let column = 0;
    for (const field of text.split(',')) {
      if (field === '') continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const c of field) {
        const digit = DIGIT.get(c) ?? 0;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0] ?? 0;
      // [column, source, line, column, name?]: these maps have one source, and names do not matter here.
      if (values.length >= 4) {
        sourceLine += values[2]!;
        sourceColumn += values[3]!;
        segments.push({ column, line: sourceLine, sourceColumn });
      }
    }
    segments.sort((a, b) => a.column - b.column);
    lines.push(segments);
  }
  return lines;
}

/** A position: 1-based line, 1-based column (as V8's call sites report them). */
export interface Position {
  readonly line: number;
  readonly column: number;
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
    lines ??= decode(mappings);
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
