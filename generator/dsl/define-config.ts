/**
 * @module `defineConfig({...})`: the default export of a project's `restgen.config.ts`, for what would
 * otherwise be repeated on every command (the API module, the output folder, template overrides, which
 * parts to generate, and the settings of `restgen diff`).
 */
import { captureCallSite } from './call-site.ts';

/** The parts restgen generates, each into its own place in the output folder. */
export type Part = 'zod' | 'server' | 'client' | 'openapi' | 'mcp' | 'changes';

/** The level of a diff finding. */
export type FindingLevel = 'breaking' | 'warning' | 'safe';

/** Settings of `restgen diff`. */
export interface DiffConfig {
  /**
   * Another level for some finding ids, e.g. `{ 'rate-limit-lowered': 'breaking' }`; `off` drops the finding.
   * A rule name without its `request-`/`response-` prefix (`field-became-nullable`) covers both sides.
   */
  readonly severity?: Readonly<Record<string, FindingLevel | 'off'>>;
  /** Exit 1 when a finding reaches this level; `none` never fails. */
  readonly failOn?: 'breaking' | 'warning' | 'none';
}

/** A project's restgen settings. Paths are relative to the config file; command-line flags win over them. */
export interface RestgenConfig {
  /** The API module. Default: `api.ts`. */
  readonly api?: string;
  /** The output folder. Default: `generated/` beside the API module. */
  readonly out?: string;
  /** A folder of Handlebars templates that replace restgen's by name (`zod/schemas.hbs`, ...). */
  readonly templates?: string;
  /**
   * The parts to generate (default: all). A part that needs another brings it along: `server` imports the
   * zod schemas and serves the OpenAPI documents, so it adds `zod` and `openapi`; `mcp` calls the API through
   * the client, so it adds `client`.
   */
  readonly generate?: readonly Part[];
  /** Settings of `restgen diff`. */
  readonly diff?: DiffConfig;
}

/** Where `defineConfig` records its call, as a property no `Object.keys` sees (shared across module copies). */
export const CONFIG_SITE: unique symbol = Symbol.for('restgen.config.site');

/**
 * Declares a project's restgen settings. Export the result as the default export of `restgen.config.ts`.
 * @example
 * import { defineConfig } from 'restgen';
 *
 * export default defineConfig({
 *   api: 'src/api.ts',
 *   out: 'src/generated',
 *   generate: ['client', 'zod'],
 * });
 */
export function defineConfig(config: RestgenConfig): RestgenConfig {
  const site = captureCallSite('defineConfig');
  const raw: unknown = config;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return config;
  return Object.defineProperty({ ...config }, CONFIG_SITE, { value: site, enumerable: false });
}
