/**
 * @module The response-shaping benchmark's driver: generates the bench API (`bench/server-api.ts`) into
 * `.bench/server`, then runs `packages/runtime/bench/serializer.ts` on its v3 schemas (the runtime's writers are
 * building blocks of @restgen/runtime, measured with its sources) and prints its table.
 * Run: `npx jiti bench/server-serializer.ts`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, '.bench/server');
const generated = await generate({ apiPath: path.join(root, 'bench/server-api.ts'), outDir });
if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
const table = execFileSync(
  process.execPath,
  [path.join(root, 'node_modules/jiti/lib/jiti-cli.mjs'), path.join(root, 'packages/runtime/bench/serializer.ts'), path.join(outDir, 'v3/schemas.ts')],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
);
process.stdout.write(table);
