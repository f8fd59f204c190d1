/**
 * @module Test helpers for the diff engine: build checked IRs from the DSL in memory, and diff one
 * collection's field (or options) before and after an edit, the way `--base` compares a version with
 * itself at two points in history.
 */
import { Command } from 'commander';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerDiffCommand } from '../../generator/cli/commands/diff.ts';
import type { AnyField, ApiDef, CollectionOptions, VersionDef } from '../../generator/dsl/index.ts';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import type { DiffOptions, Finding } from '../../generator/diff/types.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';

/** Builds and checks an API definition; throws with every diagnostic when there are any. */
export function irOf(def: ApiDef): ApiIR {
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'test-api.ts', bag);
  checkApi(ir, bag);
  if (bag.items.length) throw new Error(bag.items.map((d) => `${d.code} ${d.message}`).join('\n'));
  return ir;
}

/** Options of {@link apiWith}: the collection's options besides fields, and the API's. */
export interface ApiShape {
  readonly collection?: Omit<CollectionOptions, 'fields'>;
  readonly versions?: Readonly<Record<string, VersionDef>>;
  readonly auth?: boolean | { readonly bearer?: boolean; readonly apiKey?: string };
  readonly extra?: Readonly<Record<string, ReturnType<typeof collection>>>;
}

/** An API with one collection `items` (an id plus `fields`), bearer + API-key auth, version v1 released. */
export function apiWith(fields: Record<string, AnyField>, shape: ApiShape = {}): ApiIR {
  const auth = shape.auth ?? true;
  const authDef =
    auth === false
      ? {}
      : auth === true
        ? { bearer: {}, apiKey: { header: 'X-API-Key' } }
        : { ...(auth.bearer ? { bearer: {} } : {}), ...(auth.apiKey ? { apiKey: { header: auth.apiKey } } : {}) };
  return irOf(
    defineApi({
      name: 'test',
      versions: shape.versions ?? { v1: { released: '2026-01-01' } },
      auth: authDef,
      collections: { items: collection({ fields: { id: f.id(), ...fields }, ...shape.collection } as CollectionOptions), ...shape.extra },
    }),
  );
}

/** Findings of one version compared with itself before and after an edit (matched by name). */
export function diffEdit(before: ApiIR, after: ApiIR, version = 'v1', options: DiffOptions = {}): Finding[] {
  return diffApis(project(before, version), project(after, version), { match: 'name', ...options });
}

/** Findings of field `x` of `items` edited from `before` to `after`. */
export function diffField(before: AnyField, after: AnyField, shape: ApiShape = {}): Finding[] {
  return diffEdit(apiWith({ x: before }, shape), apiWith({ x: after }, shape));
}

/** Findings between two versions of one IR (matched by key: declared renames pair up). */
export function diffBetween(api: ApiIR, from: string, to: string, options: DiffOptions = {}): Finding[] {
  return diffApis(project(api, from), project(api, to), options);
}

/** id, level and location of each finding: what the rule tests assert. */
export function summary(findings: readonly Finding[]): { id: string; level: string; location: string }[] {
  return findings.map((f) => ({ id: f.id, level: f.level, location: f.location }));
}

const ROOT = new URL('../../', import.meta.url).pathname;
const temps: string[] = [];

/** A temporary folder where `import 'restgen'` resolves to this checkout; removed by {@link removeTempProjects}. */
export function tempProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-diff-'));
  temps.push(dir);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'restgen'));
  return dir;
}

/** Removes every folder {@link tempProject} made (call it in `afterAll`). */
export function removeTempProjects(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs `restgen diff ...args` in process, in `cwd` (default: the repository root). */
export async function runDiffCli(args: readonly string[], cwd = ROOT): Promise<{ code: number; out: string; err: string }> {
  let code = 0;
  let out = '';
  let err = '';
  const program = new Command('restgen').exitOverride();
  registerDiffCommand(program, { out: (t) => void (out += t), err: (t) => void (err += t), exit: (c) => void (code = Math.max(code, c)), debug: false, cwd });
  await program.parseAsync(['diff', ...args], { from: 'user' });
  return { code, out, err };
}
