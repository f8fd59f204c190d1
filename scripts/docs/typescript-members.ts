/**
 * @module Reads interfaces and their JSDoc from restgen's own sources with ts-morph (the TypeScript compiler API),
 * so that the reference of the DSL, the server's options and the client's options is the code's own text: a member
 * added to an interface shows up in the docs at the next build, with the comment written beside it.
 */
import { Node, Project, ts, type JSDocableNode, type MethodSignature, type PropertySignature, type SourceFile } from 'ts-morph';

/** One member of an interface as the docs show it. */
export interface MemberDoc {
  readonly name: string;
  readonly kind: 'property' | 'method';
  readonly optional: boolean;
  /** The member's type as written (a method: its parameters and return type). */
  readonly type: string;
  /** For a method, its call as a user writes it: `removedIn(version, options?)`. */
  readonly call?: string;
  /** The JSDoc description, whitespace folded. */
  readonly doc: string;
  /** The JSDoc `@example`, when there is one. */
  readonly example?: string;
}

/** An interface or type alias with its JSDoc and members. */
export interface TypeDoc {
  readonly name: string;
  readonly doc: string;
  /** The interfaces it extends, as written. */
  readonly extends: readonly string[];
  readonly members: readonly MemberDoc[];
  /** A type alias's type as written (no members). */
  readonly alias?: string;
}

/** A ts-morph project over `files` (and what they import), type-checked with the repository's strict settings. */
export function openSources(files: readonly string[]): Project {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
    },
  });
  project.addSourceFilesAtPaths([...files]);
  return project;
}

/**
 * Whitespace folded to single spaces, the trailing commas of multi-line parameter lists dropped, and `{@link X}`
 * written as code (`X`), as an editor shows it.
 */
const fold = (text: string): string =>
  text
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, '`$1`')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/,? \)/g, ')')
    .trim();

/** The JSDoc description and `@example` of a node (the last JSDoc block, as TypeScript reads it). */
function jsDocOf(node: JSDocableNode): { doc: string; example?: string } {
  const docs = node.getJsDocs();
  const last = docs[docs.length - 1];
  if (!last) return { doc: '' };
  const example = last.getTags().find((t) => t.getTagName() === 'example');
  const exampleText = example?.getCommentText()?.trim();
  return { doc: fold(last.getDescription()), ...(exampleText ? { example: exampleText } : {}) };
}

function propertyDoc(p: PropertySignature): MemberDoc {
  return {
    name: p.getName(),
    kind: 'property',
    optional: p.hasQuestionToken(),
    type: fold(p.getTypeNode()?.getText() ?? p.getType().getText(p)),
    ...jsDocOf(p),
  };
}

function methodDoc(m: MethodSignature): MemberDoc {
  const params = m.getParameters();
  const call = `${m.getName()}(${params.map((p) => `${p.getName()}${p.hasQuestionToken() ? '?' : ''}`).join(', ')})`;
  const type = `(${params.map((p) => `${p.getName()}${p.hasQuestionToken() ? '?' : ''}: ${fold(p.getTypeNode()?.getText() ?? 'unknown')}`).join(', ')}) => ${fold(m.getReturnTypeNode()?.getText() ?? 'void')}`;
  return { name: m.getName(), kind: 'method', optional: m.hasQuestionToken(), type, call, ...jsDocOf(m) };
}

/** The source file at `file` (added to the project when it is not there yet). */
function sourceOf(project: Project, file: string): SourceFile {
  return project.getSourceFile(file) ?? project.addSourceFileAtPath(file);
}

/**
 * The interface or type alias `name` declared in `file`, with its own members in the order written (overloads of a
 * method appear once). Throws when the file does not declare it: the docs must not silently lose a table.
 */
export function readType(project: Project, file: string, name: string): TypeDoc {
  const source = sourceOf(project, file);
  const iface = source.getInterface(name);
  if (iface) {
    const seen = new Set<string>();
    const members: MemberDoc[] = [];
    // `__`-prefixed members are phantoms for the type checker (`__value`), never set at run time.
    for (const m of iface.getMembers()) {
      if ((Node.isPropertySignature(m) || Node.isMethodSignature(m)) && m.getName().startsWith('__')) continue;
      if (Node.isPropertySignature(m)) members.push(propertyDoc(m));
      else if (Node.isMethodSignature(m) && !seen.has(m.getName())) {
        seen.add(m.getName());
        members.push(methodDoc(m));
      }
    }
    return { name, ...jsDocOf(iface), extends: iface.getExtends().map((e) => e.getText()), members };
  }
  const alias = source.getTypeAlias(name);
  if (alias) return { name, ...jsDocOf(alias), extends: [], members: [], alias: fold(alias.getTypeNode()?.getText() ?? '') };
  throw new Error(`${file} declares no interface or type alias ${name}`);
}

/**
 * The names of the members of the type each method of interface `name` returns, resolved by the type checker
 * (inherited members included): for the DSL, which modifiers each field builder's result has.
 */
export function returnedMembers(project: Project, file: string, name: string): ReadonlyMap<string, readonly string[]> {
  const iface = sourceOf(project, file).getInterfaceOrThrow(name);
  const out = new Map<string, readonly string[]>();
  for (const m of iface.getMethods())
    if (!out.has(m.getName()))
      out.set(
        m.getName(),
        m
          .getReturnType()
          .getProperties()
          .map((p) => p.getName())
          .filter((p) => !p.startsWith('__') && p !== 'def'),
      );
  return out;
}
