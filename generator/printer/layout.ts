/**
 * @module Lays out rendered templates: a template places a node with `{{fmt node}}`, which renders a
 * marker; once the template has rendered, every line holding markers is printed exactly as prettier prints
 * that statement, with the line's text around the markers and its indentation (no parser and no formatter):
 * a line that fits in 80 columns is its nodes' flat text (`flat.ts`); a line that breaks is built as a prettier
 * document and printed by prettier's algorithm (`doc-printer.ts`, or `prettier/doc`'s own printer for a line it
 * gives up on). A node after ` = ` (or an expression after `key: `) takes prettier's assignment layout. Lines
 * without markers are the template's own layout and stay as written, except that multi-line JSDoc comments are
 * re-indented as prettier re-indents them.
 */
import { builders, printer } from 'prettier/doc';
import { isType, type Node } from './ast.ts';
import { measuredByLength, printDoc } from './doc-printer.ts';
import { printAssignment, printExpr } from './expressions.ts';
import { flatNode } from './flat.ts';
import { printType } from './types.ts';

type Doc = builders.Doc;
const { align, group } = builders;

const OPEN = '\u0001';
const CLOSE = '\u0002';
const PRINT_WIDTH = 80;

/** Collects the nodes one template render places; `mark` returns the marker that stands for a node. */
export class Marks {
  readonly nodes: Node[] = [];
  /** The marker text of `node`. */
  mark(node: Node): string {
    this.nodes.push(node);
    return `${OPEN}${this.nodes.length - 1}${CLOSE}`;
  }
}

/** True when `text`, flat at `indent`, is how prettier prints it: it fits, measured as prettier measures it. */
const fitsFlat = (text: string, indent: number): boolean =>
  // Wide characters count twice in prettier's measure: only ASCII takes the shortcut.
  indent + text.length <= PRINT_WIDTH && measuredByLength(text);

/**
 * Prints `doc` as a line indented by `indent` columns (continuation lines relative to it), as prettier prints it:
 * for a line that does not fit flat (its flat text was tried first, see {@link flatLine}).
 */
function printLine(doc: Doc, indent: number): string {
  const root: Doc = [' '.repeat(indent), align(indent, group(doc))];
  // prettier's printer, in fewer steps (see `doc-printer.ts`); prettier's own for a line it gives up on.
  return printDoc(root) ?? printer.printDocToString(root, { printWidth: PRINT_WIDTH, tabWidth: 2, useTabs: false }).formatted;
}

const ASSIGNMENT = /^(.*\S)( =|:) $/s;

/** The document of one rendered line: its text and the nodes its markers stand for. */
function lineDoc(text: string, nodes: readonly Node[]): Doc {
  let parts: Doc[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(OPEN, at);
    if (open < 0) {
      parts.push(text.slice(at));
      break;
    }
    const close = text.indexOf(CLOSE, open);
    const node = nodes[Number(text.slice(open + 1, close))]!;
    const before = text.slice(at, open);
    const assignment = before.endsWith(' = ') || (before.endsWith(': ') && !isType(node)) ? ASSIGNMENT.exec(parts.length > 0 ? `x${before}` : before) : null;
    if (assignment && assignment[2] === ' =') {
      // `left = node`: the left side is everything before on the line (a declaration, maybe with a typed name).
      parts = [printAssignment([...parts, before.slice(0, -3)], ' =', node, false)];
    } else if (assignment) {
      // `key: expression`, an object property: the key follows the last separator of the text before it.
      const head = before.slice(0, -2);
      const start = Math.max(head.lastIndexOf(' '), head.lastIndexOf('{'), head.lastIndexOf(',')) + 1;
      parts.push(head.slice(0, start), printAssignment(head.slice(start), ':', node, true));
    } else {
      parts.push(before, isType(node) ? printType(node) : printExpr(node));
    }
    at = close + 1;
  }
  return parts;
}

/**
 * A rendered line with every marker replaced by its node on one line (see `flat.ts`), or undefined when a node
 * must break. On one line the layouts of ` = ` and `key: ` print what the template wrote around the node.
 */
function flatLine(text: string, nodes: readonly Node[]): string | undefined {
  let out = '';
  let at = 0;
  for (let open = text.indexOf(OPEN); open >= 0; open = text.indexOf(OPEN, at)) {
    const close = text.indexOf(CLOSE, open);
    const node = flatNode(nodes[Number(text.slice(open + 1, close))]!);
    if (node === undefined) return undefined;
    out += text.slice(at, open) + node;
    at = close + 1;
  }
  return out + text.slice(at);
}

/** Lays out every line of `rendered` that holds markers; see the module comment. */
export function layOut(rendered: string, marks: Marks): string {
  const text = marks.nodes.length > 0 ? layOutMarkers(rendered, marks.nodes) : rendered;
  return text.includes('\n *') || text.includes('\n*') ? reindentComments(text) : text;
}

function layOutMarkers(rendered: string, nodes: readonly Node[]): string {
  const out: string[] = [];
  let lineStart = 0;
  let done = 0;
  for (let at = rendered.indexOf(OPEN); at >= 0; at = rendered.indexOf(OPEN, at)) {
    lineStart = rendered.lastIndexOf('\n', at) + 1;
    let lineEnd = rendered.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = rendered.length;
    out.push(rendered.slice(done, lineStart));
    const line = rendered.slice(lineStart, lineEnd);
    const indent = line.length - line.trimStart().length;
    const body = line.slice(indent);
    // A line that fits is its text on one line: its document is built only when the line breaks.
    const oneLine = flatLine(body, nodes);
    out.push(oneLine !== undefined && fitsFlat(oneLine, indent) ? ' '.repeat(indent) + oneLine : printLine(lineDoc(body, nodes), indent));
    done = lineEnd;
    at = lineEnd;
  }
  out.push(rendered.slice(done));
  return out.join('');
}

/**
 * Prettier re-indents a block comment whose every line starts with `*` (a JSDoc comment): each line after
 * the first is trimmed and placed one column right of the indentation of the line the comment starts on.
 * Others are left as written. Only comments that start a line are considered (as templates write them).
 */
function reindentComments(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const body = line.trimStart();
    if (!body.startsWith('/*') || body.includes('*/')) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.includes('*/')) end++;
    if (end >= lines.length) break;
    const rest = lines.slice(i + 1, end + 1);
    if (rest.every((l) => l.trimStart().startsWith('*'))) {
      const indent = line.slice(0, line.length - body.length);
      lines[i] = line.trimEnd();
      rest.forEach((l, k) => (lines[i + 1 + k] = `${indent} ${k < rest.length - 1 ? l.trim() : l.trimStart()}`));
    }
    i = end;
  }
  return lines.join('\n');
}
