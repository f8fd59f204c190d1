/**
 * @module restgen's runtime as output files: the modules under `runtime/<from>` copied verbatim to
 * `<to>`, already formatted (a test proves that prettier leaves every runtime file unchanged).
 */
import type { RuntimeFiles } from '../templates/load-templates.ts';
import { copiedFile } from './keyed-file.ts';
import type { OutputFile } from './types.ts';

/** The runtime files under `from` (`server/`), each at `to` + the rest of its path (`server/runtime/mount.ts`). */
export function runtimeFiles(runtime: RuntimeFiles, from: string, to: string): OutputFile[] {
  const files: OutputFile[] = [];
  for (const [name, content] of runtime)
    if (name.startsWith(from)) files.push(copiedFile(to + name.slice(from.length), content));
  if (files.length === 0) throw new Error(`internal error: restgen's runtime/${from} is empty`);
  return files;
}
