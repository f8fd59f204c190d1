/**
 * @module Why a module failed to load, as data in the user's terms ({@link LoadFailure}): the file, line and column
 * of the expression that failed (a stack frame of the code that ran, mapped back through the transform's source map
 * and pinned on the node it names), the user's own names in the message, and "did you mean" for a builder, a
 * modifier or an export that does not exist. oxc's parser is loaded only here, when something failed.
 */
import { importedNameOf, importOf, parseModule, pinpoint, type Wanted } from './pinpoint.ts';
import { positionOf, type Position } from '../model/position.ts';
import type { PositionMap } from './source-map.ts';
import { suggestExport, suggestGlobal, suggestMember } from './suggest.ts';

/** A module that did not load: what went wrong, and where (1-based line and column). */
export interface LoadFailure {
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** What the runner read of a module: its source, and how positions of the code that ran map back to it. */
export interface ModuleInfo {
  readonly text: string;
  readonly map?: PositionMap;
}

/** Where a failure the runner found itself is: an offset into the source, or the import of a module (and a name of it). */
export type RunnerSite = { readonly offset: number } | { readonly spec: string; readonly name?: string; readonly exported?: readonly string[] };

/** A failure the runner found itself (a syntax error, a missing module, an export that does not exist). */
export class RunnerError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly site: RunnerSite,
  ) {
    super(message);
  }
}

/** The transform's names for imports, replaced in a message that pinpointing could not rewrite. */
const TRANSFORM_NAMES = /\b__vite_ssr_import_\d+__\.|\b__vite_ssr_(?:import|dynamic_import|exports|import_meta|exportAll)__\b/g;

/** The first frame of `error`'s stack in one of `files`, as the position of the code that ran. */
function frameIn(error: unknown, files: ReadonlyMap<string, ModuleInfo>): { file: string; at: Position } | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?\/[^():\s]+):(\d+):(\d+)\)?/g)) {
    const file = m[1]!.replace(/^file:\/\//, '');
    if (files.has(file)) return { file, at: { line: Number(m[2]), column: Number(m[3]) } };
  }
  return undefined;
}

/** What a runtime error's message names, for pinpointing: the member called, the name not defined, the property read. */
function wantedOf(message: string): Wanted | undefined {
  const call = /^(.+?) is not (?:a function|a constructor|iterable)/.exec(message);
  if (call) {
    const name = /([A-Za-z_$][\w$]*)(?:\(\.\.\.\))?$/.exec(call[1]!.replace(TRANSFORM_NAMES, ''))?.[1];
    return name ? { kind: 'call', name } : undefined;
  }
  const undefinedName = /^([A-Za-z_$][\w$]*) is not defined$/.exec(message);
  if (undefinedName) return { kind: 'identifier', name: undefinedName[1]! };
  const read = /^Cannot read properties of (?:undefined|null) \(reading '([^']+)'\)$/.exec(message);
  return read ? { kind: 'property', name: read[1]! } : undefined;
}

/** The message of a runtime error in the user's words, with a suggestion when a name is close to one restgen has. */
function reworded(message: string, wanted: Wanted | undefined, found: Awaited<ReturnType<typeof pinpoint>>): string {
  if (!wanted || !found) return message.replace(TRANSFORM_NAMES, '');
  if (wanted.kind === 'call') {
    const what = message.includes('constructor') ? 'a constructor' : message.includes('iterable') ? 'iterable' : 'a function';
    const hint = suggestMember(wanted.name, found.callee);
    return `\`${found.text}\` is not ${what}${hint ? `; ${hint}` : ''}`;
  }
  if (wanted.kind === 'identifier') {
    const hint = suggestGlobal(wanted.name);
    return `\`${wanted.name}\` is not defined${hint ? `; ${hint}` : ''}`;
  }
  return `${message.replace(TRANSFORM_NAMES, '')} in \`${found.text}\``;
}

/** Describes `error`, thrown while loading `entry`, with the modules read so far. */
export async function describeFailure(error: unknown, files: ReadonlyMap<string, ModuleInfo>, entry: string): Promise<LoadFailure> {
  if (error instanceof RunnerError) return describeRunnerError(error, files);
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const frame = frameIn(error, files);
  if (!frame) return { message: message.replace(TRANSFORM_NAMES, ''), file: entry, line: 1, column: 1 };
  const info = files.get(frame.file)!;
  const near = info.map ? (info.map(frame.at) ?? frame.at) : frame.at;
  const wanted = wantedOf(message);
  const program = wanted ? await parseModule(frame.file, info.text) : undefined;
  const found = program && wanted ? pinpoint(program, info.text, near, wanted) : undefined;
  // Without a source map (a load that records no call sites) the frame's position is the transformed code's.
  const at = found ?? (info.map ? near : { line: near.line, column: 1 });
  return { message: reworded(message, wanted, found), file: frame.file, line: at.line, column: at.column };
}

async function describeRunnerError(error: RunnerError, files: ReadonlyMap<string, ModuleInfo>): Promise<LoadFailure> {
  const text = files.get(error.file)?.text ?? '';
  const site = error.site;
  if ('offset' in site) return { message: error.message, file: error.file, ...positionOf(text, site.offset) };
  const program = await parseModule(error.file, text);
  const at =
    (program && site.name !== undefined ? importedNameOf(program, text, site.spec, site.name) : undefined) ??
    (program ? importOf(program, text, site.spec) : undefined);
  const hint = site.name !== undefined && site.exported ? suggestExport(site.name, site.exported) : undefined;
  return { message: `${error.message}${hint ? `; ${hint}` : ''}`, file: error.file, line: at?.line ?? 1, column: at?.column ?? 1 };
}
