/**
 * @module The packages the generated code imports, against the project's nearest `package.json`: each one
 * the selected parts need and the manifest does not list is a warning (RG215) with the command that adds it.
 * Generated code never imports restgen, so these are the only packages it needs at run time.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Part } from '../dsl/define-config.ts';
import { peersOf } from '../emit/parts.ts';
import { satisfiesCaret } from './caret-range.ts';
import { RUNTIME } from '../emit/runtime-package.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import { positionOf, type Position } from '../model/position.ts';
import { nearestManifest } from '../load/module-scope.ts';

const SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/**
 * Whether the generated `file` under `outDir` imports the package `name` (an ES import or export from it).
 * A file that is not there imports nothing.
 */
export function outputImports(outDir: string): (file: string, name: string) => boolean {
  return (file, name) => {
    const at = path.join(outDir, file);
    return existsSync(at) && readFileSync(at, 'utf8').includes(`from "${name}"`);
  };
}

/** `name@range`, quoted for a POSIX shell when the range holds spaces or operators. */
export function installSpec(name: string, range: string): string {
  const spec = `${name}@${range}`;
  return /^[\w@/.^~-]+$/.test(spec) ? spec : `'${spec}'`;
}

/** 1-based line and column of the `"dependencies"` key (where a missing package goes), else the file's start. */
function dependenciesAt(text: string): Position {
  return positionOf(text, Math.max(0, text.indexOf('"dependencies"')));
}

/**
 * Warnings for every package the output of `parts` in `outDir` imports (after it was written) that the
 * `package.json` nearest to `outDir` does not list in any of its dependency sections.
 */
export function missingPeers(outDir: string, parts: readonly Part[]): Diagnostic[] {
  const peers = Object.entries(peersOf(parts, outputImports(outDir)));
  if (peers.length === 0) return [];
  const manifest = nearestManifest(outDir);
  let listed = new Set<string>();
  let text = '';
  if (manifest) {
    text = readFileSync(manifest, 'utf8');
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      listed = new Set(SECTIONS.flatMap((s) => Object.keys((json[s] as Record<string, unknown> | undefined) ?? {})));
    } catch {
      // A package.json npm itself cannot read: every package counts as missing, and npm will say why.
    }
  }
  const missing = peers.filter(([name]) => !listed.has(name));
  const command = `npm install ${missing.map(([name, range]) => installSpec(name, range)).join(' ')}`;
  const at = dependenciesAt(text);
  return missing.map(
    ([name, range]): Diagnostic =>
      manifest
        ? {
            code: 'RG215',
            severity: 'warning',
            message: `the generated code imports ${name} (${range}), which package.json does not list; install it with: ${command}`,
            loc: { file: manifest, line: at.line, member: '' },
            column: at.column,
          }
        : {
            code: 'RG215',
            severity: 'warning',
            message: `the generated code imports ${name} (${range}), and there is no package.json above the output folder; create one (npm init -y) and run: ${command}`,
          },
  );
}

/** The `package.json` of `name` as installed for code in `dir` (Node's lookup: `node_modules` up the tree), or undefined. */
function installedManifest(dir: string, name: string): { file: string; json: Record<string, unknown> } | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const file = path.join(at, 'node_modules', name, 'package.json');
    if (existsSync(file)) {
      try {
        return { file, json: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> };
      } catch {
        return { file, json: {} };
      }
    }
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * A warning (RG219) when the `@restgen/runtime` installed where the generated server runs does not satisfy the
 * range the generated code is written for, or implements another contract: the server would refuse to start.
 * Nothing when the server part is not generated or the package is not installed (RG215 asks for it then).
 */
export function runtimeMismatch(outDir: string, parts: readonly Part[]): Diagnostic[] {
  if (!parts.includes('server')) return [];
  const installed = installedManifest(outDir, RUNTIME.name);
  if (!installed) return [];
  const version = typeof installed.json['version'] === 'string' ? installed.json['version'] : '(no version)';
  const contract = (installed.json['restgen'] as { contract?: unknown } | undefined)?.contract;
  const fits = satisfiesCaret(version, RUNTIME.range) && contract === RUNTIME.contract;
  if (fits) return [];
  return [
    {
      code: 'RG219',
      severity: 'warning',
      message: `the generated server needs ${RUNTIME.name} ${RUNTIME.range} (runtime contract ${RUNTIME.contract}), but ${version} is installed (contract ${String(contract ?? 'unknown')}), and the server would refuse to start; install the right one with: npm install ${installSpec(RUNTIME.name, RUNTIME.range)}`,
      loc: { file: installed.file, line: 1, member: '' },
    },
  ];
}
