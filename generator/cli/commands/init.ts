/**
 * @module `restgen init [api.ts] [--with-config] [--name]`: a starter API module (and config file) in the
 * working folder, `generate` and `check` scripts in package.json (which it creates when there is none), and
 * the install command for what the generated code imports. It never overwrites a file: when one of the files
 * it would create exists, it writes nothing and exits 2 saying which.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES } from '../../config/load-config.ts';
import { installSpec } from '../../config/peers.ts';
import { peersOf, PART_NAMES } from '../../emit/parts.ts';
import { writeAtomic } from '../../write/output-folder.ts';
import { info, usageError, type CliIO } from '../io.ts';
import { starterApi, starterConfig } from '../init-files.ts';
import { paintOf } from '../style.ts';

interface InitFlags {
  readonly withConfig?: boolean;
  readonly name?: string;
}

type Manifest = Record<string, unknown> & { scripts?: Record<string, string> };

/** An API name (letters and digits, starting with a letter) from a package or folder name: `my-shop` gives `myShop`. */
export function apiNameFrom(text: string): string {
  const words = text.replace(/^@[^/]+\//, '').split(/[^A-Za-z0-9]+/);
  // A name starts with a letter: words before the first letter (a year, a number) are dropped.
  const from = words.findIndex((w) => /[A-Za-z]/.test(w));
  if (from < 0) return 'api';
  const kept = [words[from]!.replace(/^\d+/, ''), ...words.slice(from + 1)].filter(Boolean);
  return kept.map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** The indentation package.json uses, so the edit keeps its style. */
function indentOf(text: string): string | number {
  return /\n([ \t]+)"/.exec(text)?.[1] ?? 2;
}

/** Adds the scripts under their names, or under `restgen:<name>` when a name runs something else. Returns what was added. */
function addScripts(manifest: Manifest, wanted: Record<string, string>): Record<string, string> {
  const scripts = { ...(manifest.scripts ?? {}) };
  const added: Record<string, string> = {};
  for (const [name, command] of Object.entries(wanted)) {
    if (scripts[name] === command) continue;
    const key = scripts[name] === undefined ? name : `restgen:${name}`;
    if (scripts[key] === command) continue;
    if (scripts[key] !== undefined) continue;
    scripts[key] = command;
    added[key] = command;
  }
  manifest.scripts = scripts;
  return added;
}

function runInit(apiArg: string, flags: InitFlags, io: CliIO): void {
  const p = paintOf(io);
  const apiPath = path.resolve(io.cwd, apiArg);
  const api = path.relative(io.cwd, apiPath).split(path.sep).join('/');
  const manifestPath = path.join(io.cwd, 'package.json');
  const creates = [apiPath, ...(flags.withConfig ? [path.join(io.cwd, CONFIG_FILES[0]!)] : [])];
  const taken = [...creates, ...(flags.withConfig ? CONFIG_FILES.map((f) => path.join(io.cwd, f)) : [])].filter((f) => existsSync(f));
  if (taken.length > 0)
    return usageError(
      io,
      'init',
      `${path.relative(io.cwd, taken[0]!)} exists, and init never overwrites a file; nothing was written. Move it away, or name another module: restgen init src/api.ts.`,
    );
  if (flags.name !== undefined && !/^[A-Za-z][A-Za-z0-9]*$/.test(flags.name))
    return usageError(
      io,
      'init',
      `--name '${flags.name}' must be letters and digits, starting with a letter (it names generated symbols like registerShopApi).`,
    );
  let manifest: Manifest | undefined;
  let manifestText: string | undefined;
  if (existsSync(manifestPath)) {
    manifestText = readFileSync(manifestPath, 'utf8');
    try {
      const parsed: unknown = JSON.parse(manifestText);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      manifest = parsed as Manifest;
    } catch {
      // Reported below; nothing is written into a package.json npm could not read either.
      return usageError(io, 'init', 'package.json is not a valid JSON object; fix it first (nothing was written).');
    }
  }
  const folder = path.basename(io.cwd);
  const name = flags.name ?? apiNameFrom(typeof manifest?.['name'] === 'string' ? manifest['name'] : folder);
  const target = flags.withConfig || api === 'api.ts' ? '' : ` ${api}`;
  const created = !manifest;
  manifest ??= { name: folder.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'app', version: '0.1.0', private: true, type: 'module' };
  const added = addScripts(manifest, { generate: `restgen generate${target}`, check: `restgen check${target}` });
  // The generated code is ES modules: in a CommonJS package (npm 11's `npm init -y` writes "type": "commonjs")
  // the server would not compile (RG220). An existing package.json says which type it had.
  const wasType = manifest['type'];
  const madeEsm = wasType !== 'module';
  if (madeEsm) manifest['type'] = 'module';
  // Every file first (exclusive create, so a file that appeared meanwhile is still not overwritten), package.json last.
  mkdirSync(path.dirname(apiPath), { recursive: true });
  writeFileSync(apiPath, starterApi(name, new Date().toISOString().slice(0, 10)), { flag: 'wx' });
  info(io, `  ${p.green('created')} ${api} (a starter API with two versions)\n`);
  if (flags.withConfig) {
    writeFileSync(path.join(io.cwd, CONFIG_FILES[0]!), starterConfig(api), { flag: 'wx' });
    info(io, `  ${p.green('created')} ${CONFIG_FILES[0]}\n`);
  }
  if (created || madeEsm || Object.keys(added).length > 0) {
    const indent = manifestText ? indentOf(manifestText) : 2;
    const text = JSON.stringify(manifest, null, indent) + '\n';
    // A new package.json is created exclusively; an existing one is replaced atomically (a crash leaves the old
    // file, never half of one), and only if nobody changed it since it was read (npm install may be running).
    const leftAlone = () =>
      usageError(
        io,
        'init',
        `package.json was written by another tool while init ran (npm install?), so init left it as that tool wrote it; ${api} was created. Add its scripts by hand: ${Object.entries(
          added,
        )
          .map(([k, v]) => `"${k}": "${v}"`)
          .join(', ')}${madeEsm ? ', and "type": "module"' : ''}.`,
      );
    if (manifestText === undefined) {
      try {
        writeFileSync(manifestPath, text, { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return leftAlone();
        throw error;
      }
    } else if (readFileSync(manifestPath, 'utf8') !== manifestText) return leftAlone();
    else writeAtomic(manifestPath, text);
    const scripts = Object.entries(added)
      .map(([k, v]) => `${k} (${v})`)
      .join(', ');
    info(io, `  ${p.green(created ? 'created' : 'updated')} package.json${scripts ? `: scripts ${scripts}` : ''}\n`);
    if (madeEsm && !created)
      info(
        io,
        `  ${p.green('updated')} package.json: "type": "module" (it ${typeof wasType === 'string' ? `said ${JSON.stringify(wasType)}` : 'had no "type", which means CommonJS'}): ` +
          'the generated code is ES modules; .js files of your own now load as ES modules too (rename CommonJS ones to .cjs)\n',
      );
  }
  const listed = new Set(['dependencies', 'devDependencies'].flatMap((s) => Object.keys((manifest[s] as Record<string, unknown> | undefined) ?? {})));
  // The starter API has no file field: the generated server will not import @fastify/multipart.
  const peers = Object.entries(peersOf(PART_NAMES, (_file, from) => from !== '@fastify/multipart')).filter(([n]) => !listed.has(n));
  const generateScript = Object.keys(manifest.scripts ?? {}).find((k) => manifest.scripts?.[k] === `restgen generate${target}`) ?? 'generate';
  const steps = [
    ...(listed.has('restgen') ? [] : ['npm install -D restgen']),
    ...(peers.length > 0 ? [`npm install ${peers.map(([n, r]) => installSpec(n, r)).join(' ')}   # what the generated code imports`] : []),
    `npm run ${generateScript}`,
  ];
  info(io, `next:\n${steps.map((s) => `  ${s}\n`).join('')}`);
}

/** Registers `restgen init`. */
export function registerInitCommand(program: Command, io: CliIO): void {
  program
    .command('init')
    .description('write a starter API module, add generate/check scripts to package.json, and say what to install')
    .argument('[api]', 'where to write the API module', 'api.ts')
    .option('--with-config', 'also write restgen.config.ts')
    .option('--name <name>', 'the API name (default: from package.json or the folder name)')
    .action((apiArg: string, flags: InitFlags) => runInit(apiArg, flags, io));
}
