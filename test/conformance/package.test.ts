/**
 * `restgen conformance` finds its engine, the package `@restgen/conformance`, and says what to do when it cannot
 * use it: not installed (restgen no longer carries ajv and fast-check), or reading another contract format than
 * this restgen writes. Both are one-line usage errors naming the install command.
 */
import { describe, expect, it } from 'vitest';
import { CONTRACT_FORMAT } from '../../generator/conformance/contract.ts';
import { CONFORMANCE_PACKAGE, loadConformancePackage } from '../../generator/conformance/load-package.ts';
import { BOUNDS, CONTRACT_FORMAT as READ_FORMAT, FORMATS } from '@restgen/conformance';
import { loadProgram } from '../../scripts/docs/cli-page.ts';
import { SHOP_API } from '../helpers/load-ir.ts';

/** An import that finds no package, as Node words it. */
const missing = async (specifier: string): Promise<never> => {
  throw Object.assign(new Error(`Cannot find package '${specifier}' imported from /somewhere/restgen/dist/chunks/conformance.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
};

describe('the command and the package agree', () => {
  it('the options of restgen conformance default to the bounds of the package, and name its formats', async () => {
    // The command is registered without loading the package (help works without it), so it names them itself.
    const command = (await loadProgram()).commands.find((c) => c.name() === 'conformance')!;
    const defaults = Object.fromEntries(command.options.map((o) => [o.long, o.defaultValue as unknown]));
    for (const bound of Object.values(BOUNDS)) {
      if (bound.option === null) continue;
      const flag = bound.option.split(' ')[0]!;
      const unit = bound.unit === 'bytes' ? 1024 * 1024 : 1000;
      expect(Number(defaults[flag]) * unit, flag).toBe(bound.default);
    }
    expect(command.options.find((o) => o.long === '--format')!.description).toContain(FORMATS.join(', '));
  });
});

describe('loading @restgen/conformance', () => {
  it('reads the contract format restgen writes', () => {
    expect(READ_FORMAT).toBe(CONTRACT_FORMAT);
  });

  it('is found where restgen is (here: its sources)', async () => {
    const loaded = await loadConformancePackage(SHOP_API);
    expect(loaded.ok && typeof loaded.mod.runConformance).toBe('function');
  });

  it('is found in the API module’s project when restgen cannot see it', async () => {
    const seen: string[] = [];
    const loaded = await loadConformancePackage(SHOP_API, async (specifier) => {
      seen.push(specifier);
      if (specifier === CONFORMANCE_PACKAGE.name) return missing(specifier);
      return { CONTRACT_FORMAT, runConformance: () => undefined };
    });
    expect(loaded.ok).toBe(true);
    // The second look: the package as the API module's folder resolves it (here the workspace's, linked).
    expect(seen[1]).toMatch(/^file:\/\/.*\/conformance\/dist\/index\.js$/);
  });

  it('not installed: a usage error naming the install command', async () => {
    const loaded = await loadConformancePackage('/nowhere/api.ts', missing);
    expect(loaded).toEqual({
      ok: false,
      message: 'the checks are in the package @restgen/conformance, which is not installed; add it to your project: npm install -D @restgen/conformance@^0.1.0',
    });
  });

  it('reading another contract format: a usage error naming the version that fits', async () => {
    const loaded = await loadConformancePackage(SHOP_API, async () => ({ CONTRACT_FORMAT: CONTRACT_FORMAT + 1 }));
    expect(loaded.ok).toBe(false);
    expect(!loaded.ok && loaded.message).toBe(
      `the installed @restgen/conformance reads contract format ${CONTRACT_FORMAT + 1}, but this restgen writes format ${CONTRACT_FORMAT}; install the version that goes with it: npm install -D @restgen/conformance@^0.1.0`,
    );
  });

  it('an error inside the package is not mistaken for a missing package', async () => {
    const broken = async (): Promise<never> => {
      throw Object.assign(new Error("Cannot find package 'ajv' imported from /x/node_modules/@restgen/conformance/dist/index.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    await expect(loadConformancePackage(SHOP_API, broken)).rejects.toThrow(/Cannot find package 'ajv'/);
  });
});
