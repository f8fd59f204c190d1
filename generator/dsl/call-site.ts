/**
 * @module Records where a builder was called, so a diagnostic can name `file:line` without parsing the
 * user's code on the happy path. Only the line is trusted: TypeScript loaders keep lines but not columns;
 * the model asks ts-morph for the column when it reports a diagnostic.
 *
 * The line is resolved lazily. Asking V8 for a frame's line makes it walk the source-position table of the
 * whole calling function, and every builder call of an API sits in one `defineApi({...})` expression, so
 * resolving every call site at once costs time quadratic in the size of the API (10 s at 1,000
 * collections). Capturing the frame is cheap; the line is looked up the first time someone reads it
 * (a diagnostic, a diff annotation), which is a handful of times per run.
 */
import type { CallSite } from './defs.ts';

const dslDir = new URL('.', import.meta.url).pathname;

interface V8CallSite {
  getFileName(): string | null | undefined;
  getLineNumber(): number | null;
}

/**
 * A {@link CallSite} whose `line` is looked up on first read. `line` is an own, enumerable property, so the
 * call site still reads, compares and serialises as plain data; once read, the accessor is replaced by the
 * value (so the frame can be collected, and a resolved site is told from an unresolved one).
 */
function lazyCallSite(file: string, member: string, frame: V8CallSite): CallSite {
  const site = {
    file,
    member,
    get line(): number {
      // A frame with a file name always has a position; 1 only guards against a V8 without one.
      const line = frame.getLineNumber() ?? 1;
      Object.defineProperty(site, 'line', { value: line, enumerable: true });
      return line;
    },
  };
  return site;
}

/** Up to `limit` frames of the stack above {@link captureCallSite}, as V8's structured call sites. */
function framesAbove(limit: number): V8CallSite[] {
  const previous = Error.prepareStackTrace;
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = limit;
  Error.prepareStackTrace = (_error, frames) => frames;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, captureCallSite);
  const frames = holder.stack as V8CallSite[] | undefined;
  Error.prepareStackTrace = previous;
  Error.stackTraceLimit = previousLimit;
  return frames ?? [];
}

/** The first frame outside the DSL's own files, among `frames`, as a {@link CallSite} for `member`. */
function firstUserFrame(frames: readonly V8CallSite[], member: string): CallSite | undefined {
  for (const frame of frames) {
    let file = frame.getFileName();
    if (!file) continue;
    if (file.startsWith('file://')) file = new URL(file).pathname;
    if (file.startsWith(dslDir) || file.startsWith('node:')) continue;
    return lazyCallSite(file, member, frame);
  }
  return undefined;
}

/**
 * The first stack frame outside the DSL's own files, as a {@link CallSite} for `member`. Capturing costs
 * in proportion to the frames captured, and the user's call is at most three frames up from every builder
 * (builder, modifier, `with`), so three are captured first and more only when they were not enough.
 */
export function captureCallSite(member: string): CallSite | undefined {
  return firstUserFrame(framesAbove(3), member) ?? firstUserFrame(framesAbove(12), member);
}
