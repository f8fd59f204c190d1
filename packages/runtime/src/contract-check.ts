/**
 * @module The runtime's side of the contract check: generated route tables carry the contract number they were
 * written against, and `mountApi` and the webhook dispatcher refuse to start on any other, naming the fix, instead
 * of failing later in a way nobody can place.
 */
import { RUNTIME_CONTRACT } from './contract.js';
import type { ApiSpec } from './spec.js';

/** Throws, naming the fix, when `spec` was generated for another runtime contract. */
export function assertContract(spec: Pick<ApiSpec, 'contract' | 'name'>): void {
  if (spec.contract === RUNTIME_CONTRACT) return;
  const regenerate =
    spec.contract < RUNTIME_CONTRACT
      ? 'regenerate it with a newer restgen (npm install -D restgen@latest && npx restgen generate)'
      : 'install the @restgen/runtime version that restgen generate asks for (it names it when it runs)';
  throw new Error(
    `register${spec.name}Api: the generated code was written for @restgen/runtime contract ${spec.contract}, but the installed @restgen/runtime implements contract ${RUNTIME_CONTRACT}; ${regenerate}.`,
  );
}
