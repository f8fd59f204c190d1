/**
 * @module Finds the exact position of a diagnostic's builder call with ts-morph. Call sites recorded at
 * run time carry a trustworthy line but no column; this runs only when there is something to report,
 * because importing TypeScript costs over a second.
 */
import type { Diagnostic } from './diagnostics.ts';
import type { SourceRef } from './ir.ts';

type TsMorph = typeof import('ts-morph');
type Node = import('ts-morph').Node;

/** Line and column (1-based) of the node that `ref` names inside `file`'s text. */
function findPosition(m: TsMorph, sourceFile: import('ts-morph').SourceFile, ref: SourceRef): { line: number; column: number } | undefined {
  const { SyntaxKind } = m;
  const calls = sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression);
  const nameNode = (call: import('ts-morph').CallExpression): Node => {
    const callee = call.getExpression();
    return m.Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee;
  };
  const named = calls.filter((c) => nameNode(c).getText() === ref.member);
  // The recorded line is the line V8 reported for the call; prefer a call whose name is on it.
  const onLine = named.filter((c) => nameNode(c).getStartLineNumber() === ref.line);
  const spanning = named.filter((c) => c.getStartLineNumber() <= ref.line && ref.line <= c.getEndLineNumber());
  const call = onLine[0] ?? spanning.sort((a, b) => a.getWidth() - b.getWidth())[0];
  if (!call) return undefined;
  let target: Node = nameNode(call);
  // `{...} as const`, `({...})` and `{...} satisfies T` hold the same object literal.
  const unwrap = (node: Node | undefined): Node | undefined =>
    node && (m.Node.isAsExpression(node) || m.Node.isSatisfiesExpression(node) || m.Node.isParenthesizedExpression(node)) ? unwrap(node.getExpression()) : node;
  let object: Node | undefined = unwrap(call.getArguments()[0]);
  for (const key of ref.path ?? []) {
    // An index into an array literal (`events: ['created', 'shipped']`) points at the element.
    if (object && m.Node.isArrayLiteralExpression(object) && /^\d+$/.test(key)) {
      const element = object.getElements()[Number(key)];
      if (!element) break;
      target = element;
      object = unwrap(element);
      continue;
    }
    if (!object || !m.Node.isObjectLiteralExpression(object)) break;
    const property = object.getProperty(key) ?? object.getProperty(JSON.stringify(key)) ?? object.getProperty(`'${key}'`);
    if (!property) break;
    target = property;
    object = unwrap(m.Node.isPropertyAssignment(property) ? property.getInitializer() : undefined);
  }
  const { line, column } = sourceFile.getLineAndColumnAtPos(target.getStart());
  return { line, column };
}

/**
 * The exact line and column (1-based) of each builder call `refs` name; undefined where the file cannot be
 * parsed or the call is not found. Loads ts-morph only when some ref names a call.
 */
export async function locateSources(refs: readonly (SourceRef | undefined)[]): Promise<({ line: number; column: number } | undefined)[]> {
  if (!refs.some((r) => r && r.member)) return refs.map(() => undefined);
  const m = await import('ts-morph');
  const project = new m.Project({ useInMemoryFileSystem: false, skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const files = new Map<string, import('ts-morph').SourceFile | undefined>();
  return refs.map((ref) => {
    if (!ref || !ref.member) return undefined;
    if (!files.has(ref.file)) files.set(ref.file, project.addSourceFileAtPathIfExists(ref.file));
    const sourceFile = files.get(ref.file);
    return sourceFile ? findPosition(m, sourceFile, ref) : undefined;
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
