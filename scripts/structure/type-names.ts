/**
 * @module One meaning per exported type name: the interfaces, type aliases, classes and enums each module declares
 * and exports, so a name declared in two modules (two different `Part`s) is found. Re-exports (`export type { X }
 * from`) name a type declared elsewhere and do not count.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'oxc-parser';

const DECLARATIONS = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'ClassDeclaration', 'TSEnumDeclaration']);

/** The type names a module's text declares and exports, in order. */
export function exportedTypeNames(file: string, text: string): string[] {
  const names: string[] = [];
  for (const statement of parseSync(file, text).program.body) {
    if (statement.type !== 'ExportNamedDeclaration' && statement.type !== 'ExportDefaultDeclaration') continue;
    const declaration = statement.declaration as { type: string; id?: { name?: unknown } | null } | null;
    const name = declaration?.id?.name;
    if (declaration && DECLARATIONS.has(declaration.type) && typeof name === 'string') names.push(name);
  }
  return names;
}

/** Every type name that more than one of `files` (relative to `root`) declares and exports, with those files, sorted. */
export function typeNameClashes(root: string, files: readonly string[]): [string, string[]][] {
  const declaredIn = new Map<string, string[]>();
  for (const file of files) {
    for (const name of exportedTypeNames(file, readFileSync(path.join(root, file), 'utf8'))) declaredIn.set(name, [...(declaredIn.get(name) ?? []), file]);
  }
  return [...declaredIn].filter(([, where]) => where.length > 1).sort(([a], [b]) => (a < b ? -1 : 1));
}
