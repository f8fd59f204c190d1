/**
 * @module A Markdown table laid out exactly as prettier lays it out (cells padded to the column's width,
 * the delimiter row drawn to it), so that CHANGES.md leaves the emitter already formatted and prettier,
 * slow on large Markdown, can be skipped. The emitter's tests compare the result with prettier.
 */

/** How a column is aligned. */
export type Align = 'left' | 'right';

/** The table's text, one line per row, without a trailing newline. Cells must not contain `|` or newlines. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[]): string {
  const widths = header.map((h, i) => Math.max(3, [...h].length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const pad = (text: string, i: number): string => {
    const fill = ' '.repeat(widths[i]! - [...text].length);
    return align[i] === 'right' ? fill + text : text + fill;
  };
  const line = (cells: readonly string[]): string => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === 'right' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
