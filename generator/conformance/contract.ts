/**
 * @module restgen's side of conformance (the declared entry `restgen/contract`): the contract an API module
 * declares, as plain data, which `@restgen/conformance` checks a running server against. It holds the checked
 * model, and for each version what the generated code makes of it: the projection, the OpenAPI document exactly
 * as `generate` writes it, what a create or replace that leaves a field out stores (the generated migrations'
 * fills: a default, or a `madeRequiredIn` fallback), and how the version shows each lifecycle state. The package
 * reads only this data, so it never reaches into restgen's modules, and what it checks is what restgen generates.
 */
import { buildOpenApiDocument } from '../emit/openapi/build-document.ts';
import { printJson } from '../emit/openapi/print-json.ts';
import { planFieldsUp } from '../emit/server/migration-plan.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiAt, ApiIR } from '../model/ir.ts';
import { enumValueShownAt, project } from '../model/project.ts';

export type {
  ApiAt,
  ApiIR,
  CollectionAt,
  FieldAt,
  LifecycleAt,
  MarkerAt,
  OperationName,
  TransitionAt,
  TypeIR,
  TypeKind,
  VersionIR,
} from '../model/ir.ts';
export type { Diagnostic } from '../model/diagnostics.ts';

/**
 * The shape of the contract, a number `@restgen/conformance` compares with the one it reads: it changes only when a
 * member changes meaning or goes away, and `restgen conformance` refuses a package that reads another.
 */
export const CONTRACT_FORMAT = 1;

/** One version as the contract holds it. */
export interface ConformanceVersion {
  readonly name: string;
  /** The API as this version sees it. */
  readonly api: ApiAt;
  /** The version's OpenAPI document, as `generate` writes it (without its `x-restgen` header). */
  readonly document: Readonly<Record<string, unknown>>;
  /**
   * What a create or replace through this version that leaves a field out stores, by collection key and the field's
   * newest name: a default only a later version has, or the fallback of a field made required later. A field not
   * named here is stored without a value (or with its own default in this version).
   */
  readonly omitted: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** How this version shows each lifecycle state (a state added later shows as its fallback), by collection key. */
  readonly states: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The contract of an API: its checked model and every version. */
export interface ConformanceContract {
  readonly format: typeof CONTRACT_FORMAT;
  readonly ir: ApiIR;
  /** Every version, oldest first. */
  readonly versions: readonly ConformanceVersion[];
}

/** The contract of `ir` (a checked model). */
export function contractOf(ir: ApiIR): ConformanceContract {
  const names = ir.versions.map((v) => v.name);
  const top = names.length - 1;
  const versions = names.map((name, at): ConformanceVersion => {
    const api = project(ir, name);
    const omitted: Record<string, Record<string, unknown>> = {};
    const states: Record<string, Record<string, string>> = {};
    for (const c of ir.collections) {
      // The newest version's own defaults apply in its schemas; older ones take the fills of their up plan.
      const fill = at < top ? planFieldsUp(names, c.fields, at, top, () => []).fill : {};
      if (Object.keys(fill).length > 0) omitted[c.name] = fill;
      const field = c.lifecycle && c.fields.find((f) => f.name === c.lifecycle?.field);
      if (field?.type.kind === 'enum') {
        const type = field.type;
        states[c.name] = Object.fromEntries(type.values.map((s) => [s, enumValueShownAt(names, at, type, s)]));
      }
    }
    return { name, api, document: JSON.parse(printJson(buildOpenApiDocument(api))) as Record<string, unknown>, omitted, states };
  });
  return { format: CONTRACT_FORMAT, ir, versions };
}

/** What loading an API module's contract came to: the contract, or the diagnostics that stopped it. */
export type ContractLoad =
  | { readonly ok: true; readonly contract: ConformanceContract }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly message: string };

/**
 * Loads, builds and checks the API module at `apiPath` (as `restgen generate` does) and returns its contract.
 * @example const loaded = await loadContract('api.ts'); if (!loaded.ok) throw new Error(loaded.message);
 */
export async function loadContract(apiPath: string): Promise<ContractLoad> {
  const [{ loadModel }, { formatDiagnostic, locateDiagnostics, sortDiagnostics }] = await Promise.all([
    import('../pipeline/model.ts'),
    import('../model/locate.ts'),
  ]);
  const model = await loadModel(apiPath);
  if (model.ir) return { ok: true, contract: contractOf(model.ir) };
  const located = sortDiagnostics(await locateDiagnostics(model.diagnostics));
  // Paths as they are (absolute): a library does not know the reader's working folder.
  const message = located.map((d) => formatDiagnostic(d, '\0')).join('\n');
  return { ok: false, diagnostics: located, message: `${apiPath} has errors:\n${message}` };
}
