/**
 * @module Finds the engine of `restgen conformance`, the package `@restgen/conformance` (restgen itself does not
 * depend on it, nor on what it needs: ajv, fast-check): where restgen is installed, else where the API module is
 * (restgen run from elsewhere, with the package installed in the project). A package that reads another contract
 * format than this restgen writes is refused, naming the version to install.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Conformance from '@restgen/conformance';
import { installSpec } from '../config/peers.ts';
import { CONTRACT_FORMAT } from './contract.ts';

/** The package and the versions of it this restgen works with (kept in step with its package.json by a test). */
export const CONFORMANCE_PACKAGE = { name: '@restgen/conformance', range: '^0.1.0' } as const;

/** What the command uses of the package. */
export type ConformanceModule = typeof Conformance;

/** The package, or why it cannot be used (one sentence naming the command that fixes it). */
export type LoadedPackage = { readonly ok: true; readonly mod: ConformanceModule } | { readonly ok: false; readonly message: string };

/** Imports a module by specifier or file URL (tests pass one that finds nothing). */
export type Importer = (specifier: string) => Promise<unknown>;

const install = `npm install -D ${installSpec(CONFORMANCE_PACKAGE.name, CONFORMANCE_PACKAGE.range)}`;

/** Whether `error` says that `name` itself (not a module it imports) was not found. */
function notFound(error: unknown, name: string): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && typeof e.message === 'string' && e.message.includes(`'${name}'`);
}

/** Loads `@restgen/conformance` for the API module at `apiPath`. */
export async function loadConformancePackage(apiPath: string, importer: Importer = (specifier) => import(specifier)): Promise<LoadedPackage> {
  const name = CONFORMANCE_PACKAGE.name;
  let mod: unknown;
  try {
    mod = await importer(name);
  } catch (error) {
    if (!notFound(error, name)) throw error;
    try {
      mod = await importer(pathToFileURL(createRequire(apiPath).resolve(name)).href);
    } catch (inner) {
      if (!notFound(inner, name)) throw inner;
      return { ok: false, message: `the checks are in the package ${name}, which is not installed; add it to your project: ${install}` };
    }
  }
  const format = (mod as { CONTRACT_FORMAT?: unknown }).CONTRACT_FORMAT;
  if (format !== CONTRACT_FORMAT)
    return {
      ok: false,
      message: `the installed ${name} reads contract format ${String(format)}, but this restgen writes format ${CONTRACT_FORMAT}; install the version that goes with it: ${install}`,
    };
  return { ok: true, mod: mod as ConformanceModule };
}
