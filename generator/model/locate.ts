/**
 * @module Finds the exact position of a diagnostic's builder call with oxc's parser. Call sites recorded at run time
 * carry a trustworthy line but no column; this runs only when there is something to report (the parser is loaded
 * then, and each file is parsed once per report).
 */
import { readFileSync } from 'node:fs';
import type { CallExpression, Expression, Node, Program } from 'oxc-parser';
import { positionOf, walk } from './position.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { SourceRef } from './ir.ts';

type Parse = typeof import('oxc-parser').parseSync;

/** A parsed file: its text and its program. */
interface Parsed {
  readonly text: string;
  readonly program: Program;
}

/** Every call expression of `program`, depth first. */
function callsOf(program: Program): CallExpression[] {
  const calls: CallExpression[] = [];
  walk(program, (node) => {
    if (node.type === 'CallExpression') calls.push(node);
  });
  return calls;
}

/** The node naming the function a call calls: `min` in `f.string().min(1)`, `collection` in `collection({...})`. */
function nameNode(call: CallExpression): Node {
  const callee = call.callee;
  return callee.type === 'MemberExpression' && !callee.computed ? callee.property : callee;
}

/** The name a call calls, or undefined for a computed or otherwise unnamed callee. */
function calledName(call: CallExpression): string | undefined {
  const node = nameNode(call);
  return node.type === 'Identifier' ? node.name : undefined;
}

/** `{...} as const`, `({...})`, `{...} satisfies T` and `x!` hold the same expression. */
function unwrap(node: Node | null | undefined): Node | undefined {
  if (!node) return undefined;
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'ParenthesizedExpression' || node.type === 'TSNonNullExpression')
    return unwrap(node.expression);
  return node;
}

/** The key a property is written with, as text (`fields`, `'my-key'`, `1`). */
function keyOf(key: Node): string | undefined {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'Literal') return String(key.value);
  return undefined;
}

/** Line and column (1-based) of the node that `ref` names inside a parsed file. */
function findPosition(file: Parsed, calls: readonly CallExpression[], ref: SourceRef): { line: number; column: number } | undefined {
  const lineOf = (node: Node) => positionOf(file.text, node.start).line;
  const named = calls.filter((c) => calledName(c) === ref.member);
  // The recorded line is the line V8 reported for the call; prefer a call whose name is on it.
  const onLine = named.filter((c) => lineOf(nameNode(c)) === ref.line);
  const spanning = named.filter((c) => lineOf(c) <= ref.line && ref.line <= positionOf(file.text, c.end).line);
  // A ref without a line (a model built without call sites) names a call the file makes once, such as defineApi.
  const call = onLine[0] ?? spanning.sort((a, b) => a.end - a.start - (b.end - b.start))[0] ?? (ref.line === 0 && named.length === 1 ? named[0] : undefined);
  if (!call) return undefined;
  let target: Node = nameNode(call);
  const first = call.arguments[0];
  let object: Node | undefined = first && first.type !== 'SpreadElement' ? unwrap(first as Expression) : undefined;
  for (const key of ref.path ?? []) {
    // An index into an array literal (`events: ['created', 'shipped']`) points at the element.
    if (object?.type === 'ArrayExpression' && /^\d+$/.test(key)) {
      const element = object.elements[Number(key)];
      if (!element || element.type === 'SpreadElement') break;
      target = element;
      object = unwrap(element);
      continue;
    }
    if (object?.type !== 'ObjectExpression') break;
    const property = object.properties.find((p) => p.type === 'Property' && keyOf(p.key) === key);
    if (property?.type !== 'Property') break;
    target = property;
    object = unwrap(property.value);
  }
  return positionOf(file.text, target.start);
}

/**
 * The exact line and column (1-based) of each builder call `refs` name; undefined where the file cannot be
 * parsed or the call is not found. Loads the parser only when some ref names a call.
 */
export async function locateSources(refs: readonly (SourceRef | undefined)[]): Promise<({ line: number; column: number } | undefined)[]> {
  if (!refs.some((r) => r?.member)) return refs.map(() => undefined);
  const parse: Parse = (await import('oxc-parser')).parseSync;
  const files = new Map<string, { parsed: Parsed; calls: CallExpression[] } | undefined>();
  const fileOf = (name: string) => {
    if (files.has(name)) return files.get(name);
    let entry: { parsed: Parsed; calls: CallExpression[] } | undefined;
    try {
      const text = readFileSync(name, 'utf8');
      const result = parse(name, text);
      // A file that does not parse has no trustworthy nodes: its diagnostics keep their lines.
      if (result.errors.length === 0) entry = { parsed: { text, program: result.program }, calls: callsOf(result.program) };
    } catch {
      // Unreadable (removed meanwhile, or a lock file path): the diagnostic keeps its line.
    }
    files.set(name, entry);
    return entry;
  };
  return refs.map((ref) => {
    if (!ref?.member) return undefined;
    const file = fileOf(ref.file);
    return file ? findPosition(file.parsed, file.calls, ref) : undefined;
  });
}

/** Fills in `column` (and corrects `line`) of every diagnostic whose file can be parsed. */
export async function locateDiagnostics(diagnostics: readonly Diagnostic[]): Promise<Diagnostic[]> {
  const positions = await locateSources(diagnostics.map((d) => d.loc));
  return diagnostics.map((d, i) => {
    const pos = positions[i];
    return pos && d.loc ? { ...d, loc: { ...d.loc, line: pos.line }, column: pos.column } : d;
  });
}

/** How {@link formatDiagnostic} marks up its parts (the CLI passes colours; the default is plain text). */
export interface DiagnosticStyle {
  readonly location: (text: string) => string;
  readonly error: (text: string) => string;
  readonly warning: (text: string) => string;
  readonly code: (text: string) => string;
}

const same = (text: string): string => text;
const PLAIN: DiagnosticStyle = { location: same, error: same, warning: same, code: same };

/** One line per diagnostic: `file:line:column: error RG131 message`, paths relative to `cwd`. */
export function formatDiagnostic(d: Diagnostic, cwd: string, style: DiagnosticStyle = PLAIN): string {
  const rel = (file: string) => (file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file);
  const where = d.loc ? style.location(`${rel(d.loc.file)}:${d.loc.line}:${d.column ?? 1}:`) + ' ' : '';
  return `${where}${style[d.severity](d.severity)} ${style.code(d.code)} ${d.message}`;
}

/** Orders diagnostics by file, line and column (those without a place last), keeping the order of ties. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic): [string, number, number] => (d.loc ? [d.loc.file, d.loc.line, d.column ?? 1] : ['\uffff', 0, 0]);
  return [...diagnostics].sort((a, b) => {
    const [fa, la, ca] = key(a);
    const [fb, lb, cb] = key(b);
    return fa < fb ? -1 : fa > fb ? 1 : la - lb || ca - cb;
  });
}
