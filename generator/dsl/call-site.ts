/**
 * @module Records where a builder was called, so a diagnostic can name `file:line` without parsing the
 * user's code on the happy path. Only the line is trusted: TypeScript loaders keep lines but not columns;
 * the model asks ts-morph for the column when it reports a diagnostic.
 */
import type { CallSite } from './defs.ts';

const dslDir = new URL('.', import.meta.url).pathname;

interface V8CallSite {
  getFileName(): string | null | undefined;
  getLineNumber(): number | null;
}

/** The first stack frame outside the DSL's own files, as a {@link CallSite} for `member`. */
export function captureCallSite(member: string): CallSite | undefined {
  const previous = Error.prepareStackTrace;
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 12;
  Error.prepareStackTrace = (_error, frames) => frames;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, captureCallSite);
  const frames = holder.stack as V8CallSite[] | undefined;
  Error.prepareStackTrace = previous;
  Error.stackTraceLimit = previousLimit;
  for (const frame of frames ?? []) {
    let file = frame.getFileName();
    if (!file) continue;
    if (file.startsWith('file://')) file = new URL(file).pathname;
    if (file.startsWith(dslDir) || file.startsWith('node:')) continue;
    const line = frame.getLineNumber();
    return line === null ? undefined : { file, line, member };
  }
  return undefined;
}
