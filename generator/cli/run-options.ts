/**
 * @module What a command runs on, from the command line and the config file: the API module, the output
 * folder, template overrides and the parts to generate. Flags win over the config; the config's paths are
 * relative to its own folder, flags' to the working folder. A folder that cannot be used is a one-line
 * usage error (from a flag) or a located diagnostic (from the config), exit 2 either way.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES } from '../config/config-files.ts';
import type { LoadedConfig } from '../config/load-config.ts';
import type { Part } from '../dsl/define-config.ts';
import { isPart, PART_NAMES, withNeeds } from '../emit/parts.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import { closest } from '../model/option-shapes.ts';
import { usageError, type CliIO } from './io.ts';
import { reportDiagnostics } from './report.ts';

/** The flags every generating command shares. */
export interface RunFlags {
  readonly out?: string;
  readonly templates?: string;
  readonly parts?: string;
  readonly config?: string;
}

/** A command's inputs, resolved to absolute paths. */
export interface ResolvedRun {
  readonly apiPath: string;
  /** Undefined: `generated/` beside the API module. */
  readonly outDir?: string;
  readonly templatesDir?: string;
  /** The parts to generate, with the parts they need. */
  readonly parts: readonly Part[];
  readonly config?: LoadedConfig;
}

type Kind = 'folder' | 'file' | 'missing';
function kindOf(p: string): Kind {
  try {
    return statSync(p).isDirectory() ? 'folder' : 'file';
  } catch {
    // Not there (or unreadable, which the write itself would then report).
    return 'missing';
  }
}

/** `--parts zod,client` as a list, or the message saying what is wrong with it. */
export function parseParts(text: string): { parts: Part[] } | { problem: string } {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return { problem: `--parts needs one or more of ${PART_NAMES.join(', ')}, separated by commas.` };
  for (const name of names)
    if (!isPart(name)) {
      const guess = closest(name, PART_NAMES);
      return { problem: `--parts: '${name}' is not a part${guess ? ` (did you mean '${guess}'?)` : ''}; the parts are ${PART_NAMES.join(', ')}.` };
    }
  return { parts: names as Part[] };
}

/** Resolves a command's inputs; undefined (with the problem printed and exit 2 set) when they cannot be used. */
export async function resolveRun(command: string, apiArg: string | undefined, flags: RunFlags, io: CliIO): Promise<ResolvedRun | undefined> {
  // An empty value (an unset shell variable: --out "$OUT") would resolve to the working folder itself.
  for (const [flag, value] of [
    ['--out', flags.out],
    ['--templates', flags.templates],
    ['--config', flags.config],
  ] as const)
    if (value !== undefined && value.trim() === '')
      return void usageError(
        io,
        command,
        `${flag} is empty; name a ${flag === '--config' ? 'file' : 'folder'}, or drop the option (is a shell variable unset?).`,
      );
  // The config loader (and its checker) is imported only when there is a config to load.
  const wanted = flags.config !== undefined || CONFIG_FILES.some((name) => existsSync(path.join(io.cwd, name)));
  const loaded = wanted ? await (await import('../config/load-config.ts')).loadConfig(io.cwd, flags.config) : ({ ok: true } as const);
  if (!loaded.ok) {
    await reportDiagnostics(loaded.diagnostics, io);
    return void io.exit(2);
  }
  const config = loaded.loaded;
  const base = config ? path.dirname(config.file) : io.cwd;
  const fromConfig = (p: string | undefined) => (p === undefined ? undefined : path.resolve(base, p));
  const apiPath = apiArg !== undefined ? path.resolve(io.cwd, apiArg) : (fromConfig(config?.config.api) ?? path.resolve(io.cwd, 'api.ts'));
  const outDir = flags.out !== undefined ? path.resolve(io.cwd, flags.out) : fromConfig(config?.config.out);
  const templatesDir = flags.templates !== undefined ? path.resolve(io.cwd, flags.templates) : fromConfig(config?.config.templates);
  let parts: readonly Part[] = config?.config.generate ?? PART_NAMES;
  if (flags.parts !== undefined) {
    const parsed = parseParts(flags.parts);
    if ('problem' in parsed) return void usageError(io, command, parsed.problem);
    parts = parsed.parts;
  }
  const problems: Diagnostic[] = [];
  const effectiveOut = outDir ?? path.join(path.dirname(apiPath), 'generated');
  if (kindOf(effectiveOut) === 'file') {
    if (flags.out === undefined && config?.config.out !== undefined)
      problems.push({
        code: 'RG214',
        severity: 'error',
        message: `out '${config.config.out}' is a file, not a folder; name a folder (restgen creates it when missing).`,
        loc: config.refOf('out'),
      });
    else
      return void usageError(
        io,
        command,
        `${flags.out !== undefined ? `--out ${flags.out}` : `the output folder ${path.relative(io.cwd, effectiveOut)}`} is a file, not a folder; pass --out with a folder (it is created when missing).`,
      );
  }
  if (templatesDir !== undefined && kindOf(templatesDir) !== 'folder') {
    const what = kindOf(templatesDir) === 'file' ? 'is a file, not a folder' : 'does not exist';
    if (flags.templates === undefined && config?.config.templates !== undefined)
      problems.push({
        code: 'RG218',
        severity: 'error',
        message: `templates '${config.config.templates}' ${what}; name the folder that holds your template overrides.`,
        loc: config.refOf('templates'),
      });
    else return void usageError(io, command, `--templates ${flags.templates} ${what}; name the folder that holds your template overrides.`);
  }
  if (problems.length > 0) {
    await reportDiagnostics(problems, io);
    return void io.exit(2);
  }
  return {
    apiPath,
    ...(outDir !== undefined ? { outDir } : {}),
    ...(templatesDir !== undefined ? { templatesDir } : {}),
    parts: withNeeds(parts),
    ...(config ? { config } : {}),
  };
}
