#!/usr/bin/env node
// Runs the TypeScript benchmark through jiti, like bin/restgen.js runs the CLI.
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url, { fsCache: true });
await jiti.import('./run.ts');
