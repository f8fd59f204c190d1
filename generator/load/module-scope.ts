/**
 * @module Whether the generated code lands in an ES module scope. Every generated file is an ES module (`import`,
 * `export`, `import.meta.url`); Node and TypeScript (`module: nodenext`) read a `.ts`/`.js` file as CommonJS when the
 * nearest package.json does not say `"type": "module"`, and the generated server then fails to compile (TS1470 on
 * `import.meta`; with `verbatimModuleSyntax`, TS1295 on every import). npm 11's `npm init -y` writes
 * `"type": "commonjs"`, so a fresh project meets this first (RG220).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../model/diagnostics.ts';
import { positionOf, type Position } from '../model/position.ts';

/** The nearest `package.json` at or above `dir`, or undefined. */
export function nearestManifest(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(at) === at) return undefined;
  }
}

/** What the nearest package.json says about the module kind of the files below it. */
export interface ModuleScope {
  /** The package.json (absolute), or undefined when there is none up to the root. */
  readonly manifest?: string;
  /** Its `"type"` as written (`undefined` when absent or not a string). */
  readonly type?: string;
  /** Whether files below it are ES modules. */
  readonly esm: boolean;
}

/** The module scope of files in `dir`: the `"type"` of the nearest package.json (Node's rule, and TypeScript's). */
export function moduleScopeOf(dir: string): ModuleScope {
  const manifest = nearestManifest(dir);
  if (!manifest) return { esm: false };
  let type: string | undefined;
  try {
    const json: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    const given = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
    type = typeof given === 'string' ? given : undefined;
  } catch {
    // A package.json Node cannot read fails every run anyway, with Node's own message; nothing to add here.
    return { manifest, esm: true };
  }
  return { manifest, ...(type !== undefined ? { type } : {}), esm: type === 'module' };
}

/** 1-based line and column of the `"type"` key in `text`, else of the opening brace (where the key goes). */
function typeKeyAt(text: string): Position {
  const key = /"type"\s*:/.exec(text);
  return positionOf(text, key ? key.index : Math.max(0, text.indexOf('{')));
}

/**
 * A warning (RG220) when the generated files in `outDir` are not in an ES module scope, with the fix: the
 * command that sets `"type": "module"` in that package.json, or a package.json of their own for the output folder.
 */
export function commonJsOutput(outDir: string): Diagnostic[] {
  const scope = moduleScopeOf(outDir);
  if (scope.esm) return [];
  const why =
    'the generated code is ES modules (import, export, import.meta), so Node and TypeScript (module nodenext) fail on it in a CommonJS package: ' +
    'the server does not compile (TS1470 on import.meta; TS1295 on every import with verbatimModuleSyntax)';
  if (!scope.manifest)
    return [
      {
        code: 'RG220',
        severity: 'warning',
        message: `${why}, and there is no package.json above the output folder; create one that says "type": "module" (npm init -y && npm pkg set type=module).`,
      },
    ];
  const says = scope.type === undefined ? 'has no "type" (CommonJS)' : `says "type": ${JSON.stringify(scope.type)}`;
  const at = typeKeyAt(readFileSync(scope.manifest, 'utf8'));
  return [
    {
      code: 'RG220',
      severity: 'warning',
      message: `${why}; this package.json ${says}. Make the project ES modules: npm pkg set type=module (or give the output folder a package.json of its own with { "type": "module" }).`,
      loc: { file: scope.manifest, line: at.line, member: '' },
      column: at.column,
    },
  ];
}
