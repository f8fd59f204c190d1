/**
 * @module restgen's runtime as output files: the modules under `runtime/<from>` copied verbatim to
 * `<to>`, already formatted (a test proves that prettier leaves every runtime file unchanged).
 */
import type { RuntimeFiles } from '../templates/load-templates.ts';
import { copiedFile } from './file.ts';
import type { OutputFile } from './types.ts';

/**
 * The runtime files under `from` (`client/`), each at `to` + the rest of its path (`client/runtime/body.ts`);
 * only those listed in `only` (paths under `runtime/`, `client/body.ts`) when it is given.
 */
export function runtimeFiles(runtime: RuntimeFiles, from: string, to: string, only?: readonly string[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const [name, content] of runtime)
    if (name.startsWith(from) && (only === undefined || only.includes(name))) files.push(copiedFile(to + name.slice(from.length), content));
  if (files.length === 0) throw new Error(`internal error: restgen's runtime/${from} is empty`);
  return files;
}
