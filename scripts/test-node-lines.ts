// Runs the tests whose outcome depends on the Node that runs them on every other Node line restgen supports
// (scripts/ensure-node.sh fetches them; the whole suite runs on the Node that runs npm test). Part of npm test.
//
// What differs between Node lines and what here finds it: the CLI's V8 tuning and module loading (V8's flags are
// renamed between versions), WebCrypto behind JWT verification (how a key refuses a token of another algorithm),
// Node's own fetch (undici) behind the generated client and webhook delivery, and the generated server over real
// HTTP. Exits non-zero when a Node cannot be had or a test fails on one.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TESTS = [
  'test/cli/options.test.ts',
  'test/oauth/server-jwt.test.ts',
  'test/oauth/jwt-hardening.test.ts',
  'test/oauth/client-credentials.test.ts',
  'test/runtime/jwt-verifier.test.ts',
  'test/client/e2e.test.ts',
  'test/webhooks/delivery.test.ts',
];

let lines: string[][];
try {
  lines = execFileSync('bash', [path.join(ROOT, 'scripts/ensure-node.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
} catch {
  // As with the other services the tests need: in CI a missing Node fails the run; elsewhere (offline) it is skipped, said.
  const ci = process.env['CI'] === 'true';
  console.error(`test-node-lines: the other Node lines could not be fetched (scripts/ensure-node.sh above says why)${ci ? '' : '; skipped outside CI'}`);
  process.exit(ci ? 1 : 0);
}

let failed = 0;
for (const [dir, version] of lines as [string, string][]) {
  console.log(`\n  on Node ${version.slice(1)}: ${TESTS.join(' ')}`);
  // That Node first on PATH: vitest, and every node a test starts (process.execPath or by name), run on it.
  const env = { ...process.env, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}` };
  const run = spawnSync(path.join(dir, 'bin/node'), [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...TESTS], { cwd: ROOT, env, stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
