/**
 * @module Loads restgen's Handlebars templates (and a user's overrides, by the same name) and compiles
 * them once, and reads the runtime restgen copies verbatim into generated output (`runtime/`). Emitters
 * receive only the resulting `render` function and runtime texts, so they stay pure.
 */
import type Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packagePath } from '../package-root.ts';
import type { Node } from '../printer/ast.ts';
import { layOut, Marks } from '../printer/layout.ts';

/**
 * Every template restgen renders, and the view model each one takes (partials, `_name`, are not listed). Each module
 * that builds a view adds its template here (`declare module '.../load-templates.ts'`), so this module depends on no
 * emitter and no report: the templates sit below the code that fills them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one entry per view module.
export interface TemplateViews {}

/** Renders template `name` (like `zod/schemas`) with its view model. */
export type Render = <K extends keyof TemplateViews>(name: K, view: TemplateViews[K]) => string;

/** The names of {@link TemplateViews}: each must exist as `templates/<name>.hbs`. */
const RENDERED: { readonly [K in keyof TemplateViews]: true } = {
  'changes/changes': true,
  'changes/diff-report.html': true,
  'changes/upgrading': true,
  'client/collection': true,
  'client/index': true,
  'client/version': true,
  'server/collection': true,
  'server/events': true,
  'server/index': true,
  'server/routes': true,
  'server/types': true,
  'zod/collection': true,
  'zod/schemas': true,
};

/** restgen's own templates folder. */
export const BUILTIN_TEMPLATES = packagePath('templates');

function templateFiles(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.hbs')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const name = path
      .relative(dir, full)
      .replace(/\\/g, '/')
      .replace(/\.hbs$/, '');
    found.set(name, full);
  }
  return found;
}

// The nodes `{{fmt node}}` places during the render in progress (renders are synchronous).
let marks: Marks | undefined;

function createHandlebars(): typeof Handlebars {
  const hb = (requireHere(RUNTIME) as typeof Handlebars).create();
  // Helpers format; they never decide what is generated (that is the view model's job).
  hb.registerHelper('json', (value: unknown) => JSON.stringify(value));
  hb.registerHelper('jsdoc', (text: unknown) => String(text ?? '').replace(/\*\//g, '*\\/'));
  // A syntax node of the view model, laid out as prettier prints it once the template has rendered.
  hb.registerHelper('fmt', (node: Node) => {
    if (!marks) throw new Error('internal error: {{fmt}} outside a render');
    return marks.mark(node);
  });
  return hb;
}

const COMPILE_OPTIONS = { strict: true, noEscape: true } as const;

// Templates render with Handlebars' runtime, from precompiled code the pipeline's cache usually has; the compiler
// (twice the runtime's load time) is loaded only when a template must be compiled. Both come from the package's
// single-file builds: the same code as its CommonJS modules, loaded as one file instead of some twenty (half the
// load time, on every run that renders).
const requireHere = createRequire(import.meta.url);
const RUNTIME = 'handlebars/dist/handlebars.runtime.js';
let compiler: typeof Handlebars | undefined;
const compilerOf = (): typeof Handlebars => (compiler ??= requireHere('handlebars/dist/handlebars.js') as typeof Handlebars);

/**
 * Loads every template under restgen's `templates/` and, when given, the user's override folder (a file
 * there with the same relative name replaces restgen's). Partials are templates whose name starts with `_`
 * in their folder, registered as `folder/_name`. A template is compiled when first rendered (a run that
 * renders nothing compiles nothing), from the precompiled code `memo` (the pipeline's cache) kept when it has it,
 * so a run compiles only templates it has never seen.
 */
export function loadTemplates(
  overrideDir?: string,
  memo?: (name: string, text: string, compile: () => string) => string,
): { render: Render; names: readonly string[] } {
  const files = templateFiles(BUILTIN_TEMPLATES);
  const overridden = new Set<string>();
  if (overrideDir) {
    const overrides = templateFiles(overrideDir);
    for (const name of overrides.keys())
      if (!files.has(name))
        throw new Error(`template override ${name}.hbs in ${overrideDir} does not replace any restgen template; known: ${[...files.keys()].sort().join(', ')}`);
    for (const [name, file] of overrides) {
      files.set(name, file);
      overridden.add(name);
    }
  }
  for (const name of Object.keys(RENDERED)) if (!files.has(name)) throw new Error(`internal error: templates/${name}.hbs is missing`);
  const hb = createHandlebars();
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  /** A failure in a user's template is the user's to fix: said so, with the file (see RG201). */
  const blame = (name: string, what: string, error: unknown): unknown =>
    overridden.has(name)
      ? new Error(`template override ${name}.hbs in ${overrideDir} ${what}: ${error instanceof Error ? error.message : String(error)}`)
      : error;
  const compile = (name: string): HandlebarsTemplateDelegate => {
    let template = compiled.get(name);
    if (template) return template;
    const text = readFileSync(files.get(name)!, 'utf8');
    try {
      const precompile = () => compilerOf().precompile(text, COMPILE_OPTIONS) as string;
      const spec = memo ? memo(name, text, precompile) : precompile();
      // Handlebars' own precompiled form: an object literal of functions, evaluated as Handlebars.compile does.
      template = hb.template(new Function(`return ${spec}`)() as TemplateSpecification);
    } catch (error) {
      throw blame(name, 'does not compile', error);
    }
    compiled.set(name, template);
    return template;
  };
  for (const name of files.keys())
    if (path.basename(name).startsWith('_')) hb.registerPartial(name, (context: unknown, options?: RuntimeOptions) => compile(name)(context, options));
  const render: Render = (name, view) => {
    const outer = marks;
    marks = new Marks();
    try {
      const template = compile(name);
      let text: string;
      try {
        text = template(view);
      } catch (error) {
        throw blame(name, 'failed to render', error);
      }
      return name.endsWith('.html') || name.startsWith('changes/') ? text : layOut(text, marks);
    } finally {
      marks = outer;
    }
  };
  return { render, names: [...files.keys()].sort() };
}

/** restgen's runtime folder: TypeScript copied verbatim into generated output. */
export const RUNTIME_DIR = packagePath('runtime');

/** The runtime's files by their path under `runtime/` (`server/mount.ts`), POSIX separators, sorted. */
export type RuntimeFiles = ReadonlyMap<string, string>;

let runtimeFiles: RuntimeFiles | undefined;
/** Reads every `.ts` file under `runtime/` once per process (they are part of restgen, not of the user's project). */
export function loadRuntime(): RuntimeFiles {
  if (runtimeFiles) return runtimeFiles;
  const found: [string, string][] = [];
  for (const entry of readdirSync(RUNTIME_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.push([path.relative(RUNTIME_DIR, full).replace(/\\/g, '/'), readFileSync(full, 'utf8')]);
  }
  runtimeFiles = new Map(found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return runtimeFiles;
}
