/**
 * Spectral's `spectral:oas` ruleset (all of its rules) on every generated document (the shop's, whose v3 has
 * a file field, and the ledger's, which answer XML too): no error, and no
 * finding about security (`oas3-operation-security-defined`: every scheme an operation names is defined,
 * every OAuth 2.0 scope it asks for is declared in the scheme's flows). The style rules that remain
 * (contact, description of each operation) ask for information the DSL does not hold. An API that names
 * scopes without declaring OAuth 2.0 lists them as the role names OpenAPI 3.1 allows on other schemes,
 * which Spectral cannot check: those, and only those, are its findings there.
 */
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import rulesets from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_API } from '../server/helpers.ts';
import { generateExample, type GeneratedExample } from '../openapi/generate-openapi.ts';
import { LEDGER_API } from '../versions/ledger.ts';

const VAULT_API = new URL('../attack/fixtures/vault.ts', import.meta.url).pathname;
const examples: GeneratedExample[] = [];
beforeAll(async () => {
  examples.push(
    await generateExample('spectral-shop'),
    await generateExample('spectral-header', HEADER_API),
    await generateExample('spectral-vault', VAULT_API),
    // XML beside JSON: application/xml bodies and answers, problem+xml, xml objects.
    await generateExample('spectral-ledger', LEDGER_API),
  );
}, 120_000);
afterAll(() => examples.forEach((e) => e.cleanup()));

/** Spectral with every rule of `spectral:oas`. */
function createSpectral(): InstanceType<typeof spectralCore.Spectral> {
  const spectral = new spectralCore.Spectral();
  // The rulesets package declares its own copy of the core's types.
  spectral.setRuleset({ extends: [[rulesets.oas as unknown as RulesetDefinition, 'all']] });
  return spectral;
}

/** What the test reads of a Spectral result. */
interface Result {
  readonly code: string | number;
  readonly severity: number;
  readonly message: string;
  readonly path: readonly (string | number)[];
}

describe('Spectral spectral:oas', () => {
  it('reports no error and no security finding on any document', async () => {
    const spectral = createSpectral();
    let documents = 0;
    for (const example of examples)
      for (const version of example.versions) {
        const text = JSON.stringify(example.doc(version));
        const results = (await spectral.run(new spectralCore.Document(text, Parsers.Json, `${example.ir.name}-${version}.json`))) as Result[];
        const describe = (r: Result) => `${example.ir.name} ${version}: ${r.code} ${r.message} at ${r.path.join('.')}`;
        const security = results.filter((r) => String(r.code).includes('security'));
        if (example.ir.auth.oauth2 || example.ir.collections.every((c) => c.scopes.read.length + c.scopes.write.length === 0))
          expect(security.map(describe)).toEqual([]);
        else {
          // Role names on bearer and API-key schemes: valid OpenAPI 3.1 that Spectral reports; declaring oauth2 ends them.
          expect(security.length).toBeGreaterThan(0);
          for (const r of security)
            expect(describe(r)).toMatch(
              /oas3-operation-security-defined "[^"]+" must be listed among scopes\. at paths\..+\.security\.\d\.(bearerAuth|apiKeyAuth)\.\d+$/,
            );
        }
        expect(results.filter((r) => r.severity === 0).map(describe)).toEqual([]);
        documents++;
      }
    expect(documents).toBe(11);
  }, 120_000);

  it('checks OAuth 2.0 scopes against the flows: an undeclared scope would be reported', async () => {
    const spectral = createSpectral();
    const doc = structuredClone(examples[0]!.doc('v2')) as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
    doc.paths['/v2/orders']!['post']!.security = [{ oauth2: ['orders:delete'] }];
    const results = (await spectral.run(new spectralCore.Document(JSON.stringify(doc), Parsers.Json, 'shop-v2.json'))) as Result[];
    expect(results.filter((r) => r.code === 'oas3-operation-security-defined').map((r) => r.message)).toEqual(['"orders:delete" must be listed among scopes.']);
  });
});
