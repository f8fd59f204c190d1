/**
 * @module Test helper: loads an API module and returns its checked IR, failing loudly on diagnostics.
 */
import { loadApi } from '../../generator/load/load-api.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';

/** The example shop API module. */
export const SHOP_API = new URL('../../examples/shop/api.ts', import.meta.url).pathname;

/** Loads, builds and checks `apiPath`; throws with every diagnostic when there are any. */
export async function loadIr(apiPath: string = SHOP_API): Promise<ApiIR> {
  const loaded = await loadApi(apiPath);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  const bag = new DiagnosticBag();
  const ir = buildApi(loaded.def, loaded.source, bag);
  checkApi(ir, bag);
  if (bag.items.length > 0) throw new Error(bag.items.map((d) => `${d.code} ${d.message}`).join('\n'));
  return ir;
}
