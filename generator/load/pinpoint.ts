/**
 * @module Reads a module's own source (with oxc's parser, only when something failed) to say a load failure in the
 * user's words: the exact line and column of the expression that failed, its text as written (`f.strng`, not the
 * transform's `__vite_ssr_import_0__.f.strng`), and what kind of thing it called, for "did you mean".
 */
import type { Expression, ImportDeclaration, Program, Super } from 'oxc-parser';
import type { CalleeKind } from './suggest.ts';
import { positionOf, walk, type Position } from '../model/position.ts';

/** The parsed module, or undefined when it does not parse (its syntax error is reported by the transform). */
export async function parseModule(file: string, text: string): Promise<Program | undefined> {
  const { parseSync } = await import('oxc-parser');
  const parsed = parseSync(file, text);
  return parsed.errors.length > 0 ? undefined : parsed.program;
}

/** What a runtime error names: a call of a member that is no function, a name not defined, a property read. */
export type Wanted = { readonly kind: 'call' | 'identifier' | 'property'; readonly name: string };

/** The node found for a {@link Wanted}: where it is, its text as written, and what it called. */
export interface Pinpointed extends Position {
  readonly text: string;
  readonly callee: CalleeKind;
}

/** `f.string().min(…).mx`: a member chain as written, arguments elided (as V8 does), with the user's names. */
function render(node: Expression | Super): string {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'ThisExpression':
      return 'this';
    case 'MemberExpression':
      return node.computed
        ? `${render(node.object)}[…]`
        : `${render(node.object)}.${node.property.type === 'PrivateIdentifier' ? `#${node.property.name}` : node.property.name}`;
    case 'CallExpression':
      return `${render(node.callee)}(${node.arguments.length > 0 ? '…' : ''})`;
    case 'ParenthesizedExpression':
      return render(node.expression);
    case 'TSNonNullExpression':
      return render(node.expression);
    default:
      return '…';
  }
}

/** The local names under which `program` imports restgen's `f` (`f`, `field` for `{ f as field }`, `r.f` for `* as r`). */
function builderNames(program: Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.source.value !== 'restgen') continue;
    for (const s of statement.specifiers) {
      if (s.type === 'ImportSpecifier' && (s.imported.type === 'Identifier' ? s.imported.name : s.imported.value) === 'f') names.add(s.local.name);
      else if (s.type === 'ImportNamespaceSpecifier' || s.type === 'ImportDefaultSpecifier') names.add(`${s.local.name}.f`);
    }
  }
  return names;
}

/**
 * The node a runtime error names, nearest to `near` (where the error's stack frame maps back to; on that line when
 * there is one there): for a call, the called member's name (`strng` in `f.strng()`), as V8 and tsc point at it.
 */
export function pinpoint(program: Program, text: string, near: Position, wanted: Wanted): Pinpointed | undefined {
  const f = builderNames(program);
  const found: Pinpointed[] = [];
  const add = (at: number, shown: string, callee: CalleeKind) => found.push({ ...positionOf(text, at), text: shown, callee });
  walk(program, (node) => {
    if (wanted.kind === 'call' && (node.type === 'CallExpression' || node.type === 'NewExpression')) {
      const callee = node.callee;
      if (callee.type === 'Identifier' && callee.name === wanted.name) add(callee.start, callee.name, { kind: 'other' });
      if (callee.type === 'MemberExpression' && !callee.computed && callee.property.name === wanted.name) {
        const object = render(callee.object);
        const kind: CalleeKind = f.has(object)
          ? { kind: 'builder', via: object }
          : callee.object.type === 'CallExpression'
            ? { kind: 'modifier' }
            : { kind: 'other' };
        add(callee.property.start, render(callee), kind);
      }
    } else if (wanted.kind === 'identifier' && node.type === 'Identifier' && node.name === wanted.name) add(node.start, node.name, { kind: 'other' });
    else if (wanted.kind === 'property' && node.type === 'MemberExpression' && !node.computed && node.property.name === wanted.name)
      add(node.property.start, render(node), { kind: 'other' });
  });
  const distance = (p: Position) => Math.abs(p.line - near.line) * 10_000 + Math.abs(p.column - near.column);
  return found.sort((a, b) => distance(a) - distance(b))[0];
}

/** The import or export declaration of `program` that names `spec`: where its module string is. */
export function importOf(program: Program, text: string, spec: string): Position | undefined {
  for (const statement of program.body) {
    const source =
      statement.type === 'ImportDeclaration' || statement.type === 'ExportAllDeclaration' || statement.type === 'ExportNamedDeclaration'
        ? statement.source
        : null;
    if (source && source.value === spec) return positionOf(text, source.start);
  }
  let dynamic: Position | undefined;
  walk(program, (node) => {
    if (!dynamic && node.type === 'ImportExpression' && node.source.type === 'Literal' && node.source.value === spec)
      dynamic = positionOf(text, node.source.start);
  });
  return dynamic;
}

/** Where `program` imports `name` from `spec` (`import { colection } from 'restgen'`): the imported name. */
export function importedNameOf(program: Program, text: string, spec: string, name: string): Position | undefined {
  const declaration = program.body.find(
    (s): s is ImportDeclaration =>
      s.type === 'ImportDeclaration' &&
      s.source.value === spec &&
      s.specifiers.some((x) => x.type === 'ImportSpecifier' && (x.imported.type === 'Identifier' ? x.imported.name : x.imported.value) === name),
  );
  const specifier = declaration?.specifiers.find(
    (x) => x.type === 'ImportSpecifier' && (x.imported.type === 'Identifier' ? x.imported.name : x.imported.value) === name,
  );
  return specifier && positionOf(text, specifier.start);
}
