/**
 * @module The names a config file may have: kept apart from the loader, so a run without a config file can
 * tell so without loading the config checker.
 */

/** The names a config file may have, in the order they are looked for. */
export const CONFIG_FILES: readonly string[] = ['restgen.config.ts', 'restgen.config.mts', 'restgen.config.js', 'restgen.config.mjs'];
