#!/usr/bin/env node
// restgen's sources are TypeScript; jiti compiles them on first use and caches the result.
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url, { fsCache: true, sourceMaps: false });
const { main } = await jiti.import('../generator/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
