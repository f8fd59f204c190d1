/**
 * @module `generate --watch`: regenerates when a file in the API module's folder changes.
 */
import { watch } from 'chokidar';
import path from 'node:path';
import { info, type CliIO } from './io.ts';

/** Watches the module's folder (not the output folder) and calls `run` after each burst of changes. */
export function watchApi(apiPath: string, outDir: string | undefined, io: CliIO, run: () => Promise<void>): Promise<void> {
  const root = path.dirname(apiPath);
  const out = outDir ?? path.join(root, 'generated');
  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (p: string) => p.startsWith(out) || p.includes(`${path.sep}node_modules`) || /(^|[/\\])\./.test(path.relative(root, p)),
  });
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  watcher.on('all', (_event, changed) => {
    const file = String(changed);
    if (!/\.(ts|mts|js|mjs|json|hbs)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        info(io, `\nchanged: ${path.relative(io.cwd, file)}\n`);
        await run();
      });
    }, 80);
  });
  watcher.on('ready', () => info(io, `watching ${path.relative(io.cwd, root) || '.'} (Ctrl-C to stop)\n`));
  return new Promise((resolve) => {
    process.once('SIGINT', () => void watcher.close().then(resolve));
  });
}
