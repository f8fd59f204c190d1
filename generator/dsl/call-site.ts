/**
 * @module Records where a builder was called, so a diagnostic can name `file:line` without parsing the
 * user's code on the happy path. Only the line is trusted: TypeScript loaders keep lines but not columns;
 * the model asks oxc's parser for the column when it reports a diagnostic (`model/locate.ts`).
 *
 * The line is resolved lazily. Asking V8 for a frame's line makes it walk the source-position table of the
 * whole calling function, and every builder call of an API sits in one `defineApi({...})` expression, so
 * resolving every call site at once costs time quadratic in the size of the API (10 s at 1,000
 * collections). Capturing the frame is cheap; the line is looked up the first time someone reads it
 * (a diagnostic, a diff annotation), which is a handful of times per run.
 */
import type { CallSite } from './defs.ts';

const dslUrl = new URL('.', import.meta.url).href;
const dslDir = new URL('.', import.meta.url).pathname;

interface V8CallSite {
  getFileName(): string | null | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
}

/** Maps a 1-based line and column of the code that ran to the line of the source file it came from. */
export type SourceLineOf = (line: number, column: number) => number;

const POSITIONS = Symbol.for('restgen.source-lines');

/**
 * Per file, how lines of the code that ran map back to the file's own lines, for loaders whose transform moves
 * code (the native TypeScript transform prints code anew). Kept in the global symbol registry because the
 * DSL a user's module imports and the command line that loads the module are separate bundles, each with its
 * own copy of this module. A file without an entry ran as written (its lines are its own).
 */
export function sourceLines(): Map<string, SourceLineOf> {
  const holder = globalThis as { [POSITIONS]?: Map<string, SourceLineOf> };
  return (holder[POSITIONS] ??= new Map());
}

/**
 * A {@link CallSite} whose `line` is looked up on first read. `line` is an own, enumerable property, so the
 * call site still reads, compares and serialises as plain data; once read, the accessor is replaced by the
 * value (so the frame can be collected, and a resolved site is told from an unresolved one).
 */
function lazyCallSite(file: string, member: string, frame: V8CallSite, lineOf: SourceLineOf | undefined): CallSite {
  const site = {
    file,
    member,
    get line(): number {
      // A frame with a file name always has a position; 1 only guards against a V8 without one.
      const ran = frame.getLineNumber() ?? 1;
      const line = lineOf ? lineOf(ran, frame.getColumnNumber() ?? 1) : ran;
      Object.defineProperty(site, 'line', { value: line, enumerable: true });
      return line;
    },
  };
  return site;
}

const OFF = Symbol.for('restgen.call-sites-off');

/**
 * Runs `load` with call sites turned off: builders capture no stack frame (a large part of loading an API) and
 * record a stand-in site instead, which still says which member was called (the model reads which modifiers
 * were called from the recorded sites) but not where. For a run that reports nothing; a run with anything to
 * report loads the module again with them on. Kept in the global symbol registry, like {@link sourceLines}: the
 * DSL the user's module imports is another bundle than the loader's.
 */
export async function withoutCallSites<T>(load: () => Promise<T>): Promise<T> {
  const holder = globalThis as { [OFF]?: boolean };
  holder[OFF] = true;
  try {
    return await load();
  } finally {
    delete holder[OFF];
  }
}

/** False while {@link withoutCallSites} runs a load: no line will be asked for, so none needs mapping. */
export function callSitesOn(): boolean {
  return !(globalThis as { [OFF]?: boolean })[OFF];
}

const standIns = new Map<string, CallSite>();

/** The site recorded for `member` while call sites are off: no file, line 0 (never shown: see `withoutCallSites`). */
function standIn(member: string): CallSite {
  let site = standIns.get(member);
  if (!site) standIns.set(member, (site = Object.freeze({ file: '', line: 0, member })));
  return site;
}

/** A function whose frame (and every frame above it) a stack capture leaves out. */
type Above = (...args: never[]) => unknown;

/** Up to `limit` frames of the stack below the topmost call of `above`, as V8's structured call sites. */
function framesAbove(limit: number, above: Above): V8CallSite[] {
  const previous = Error.prepareStackTrace;
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = limit;
  Error.prepareStackTrace = (_error, frames) => frames;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, above);
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
    if (file.startsWith('file://')) {
      if (file.startsWith(dslUrl)) continue;
      file = new URL(file).pathname;
    }
    if (file.startsWith(dslDir) || file.startsWith('node:')) continue;
    return lazyCallSite(file, member, frame, sourceLines().get(file));
  }
  return undefined;
}

/**
 * The first stack frame outside the DSL's own files, as a {@link CallSite} for `member`. Capturing costs in
 * proportion to the frames captured. A builder passes the public function the user called as `above`: the
 * capture then starts at the user's frame and takes one frame. Without it (or when that function is not on
 * the stack, e.g. called through a wrapper), the user's call is at most three frames up from every builder
 * (builder, modifier, `with`), so three are captured first and more only when they were not enough.
 */
export function captureCallSite(member: string, above?: Above): CallSite | undefined {
  if (!callSitesOn()) return standIn(member);
  return (
    (above ? firstUserFrame(framesAbove(1, above), member) : undefined) ??
    firstUserFrame(framesAbove(3, captureCallSite), member) ??
    firstUserFrame(framesAbove(12, captureCallSite), member)
  );
}
