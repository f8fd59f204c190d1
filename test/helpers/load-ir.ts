/**
 * @module Test helper: loads an API module and returns its checked IR, failing loudly on diagnostics.
 */
import type { ApiIR } from '../../generator/model/ir.ts';
import { loadModel } from '../../generator/pipeline/generate.ts';

/** The example shop API module. */
export const SHOP_API = new URL('../../examples/shop/api.ts', import.meta.url).pathname;

/** Loads, builds and checks `apiPath` as `restgen generate` does; throws with every diagnostic when there are any. */
export async function loadIr(apiPath: string = SHOP_API): Promise<ApiIR> {
  const model = await loadModel(apiPath);
  if (!model.ir || model.diagnostics.length > 0) throw new Error(model.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return model.ir;
}
