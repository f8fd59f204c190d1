#!/usr/bin/env node
// The restgen command: runs the compiled CLI from dist/ (built by `npm run build`, and by npm on `npm pack` and
// `npm publish` through the `prepack` script).
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  process.stderr.write('restgen: dist/cli.js is missing; in a clone of restgen, run `npm run build` first.\n');
  process.exit(2);
}
cli.tuneEngine(process.argv.slice(2));
process.exitCode = await cli.main(process.argv.slice(2));
