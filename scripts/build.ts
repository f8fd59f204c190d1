/**
 * @module `npm run build`: restgen (`dist/`, `tsdown.config.ts`) and then `@restgen/runtime`
 * (`packages/runtime/dist/`, its own config), through tsdown's API. tsdown's command line prints on every run under
 * Node 20 that Node 20 is deprecated and that a later tsdown drops it; restgen supports Node 20.19 and later, and
 * pins a tsdown that builds on it, so the build says nothing unless something is wrong.
 */
import { build } from 'tsdown';

await build({ logLevel: 'warn' });
await build({ cwd: 'packages/runtime', logLevel: 'warn' });
