/**
 * @module Loads restgen's Handlebars templates (and a user's overrides, by the same name) and compiles
 * them once. Emitters receive only the resulting `render` function, so they stay pure.
 */
import Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../package-root.ts';

/** Renders template `name` (like `zod/schemas`) with a view model. */
export type Render = (name: string, view: object) => string;

/** restgen's own templates folder. */
export const BUILTIN_TEMPLATES = packagePath('templates');

function templateFiles(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.hbs')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full).replace(/\\/g, '/').replace(/\.hbs$/, '');
    found.set(name, full);
  }
  return found;
}

function createHandlebars(): typeof Handlebars {
  const hb = Handlebars.create();
  // Helpers format; they never decide what is generated (that is the view model's job).
  hb.registerHelper('json', (value: unknown) => JSON.stringify(value));
  hb.registerHelper('jsdoc', (text: unknown) => String(text ?? '').replace(/\*\//g, '*\\/'));
  return hb;
}

/**
 * Compiles every template under restgen's `templates/` and, when given, the user's override folder
 * (a file there with the same relative name replaces restgen's). Partials are templates whose name
 * starts with `_` in their folder, registered as `folder/_name`.
 */
export function loadTemplates(overrideDir?: string): { render: Render; names: readonly string[] } {
  const files = templateFiles(BUILTIN_TEMPLATES);
  if (overrideDir) {
    const overrides = templateFiles(overrideDir);
    for (const name of overrides.keys())
      if (!files.has(name))
        throw new Error(`template override ${name}.hbs in ${overrideDir} does not replace any restgen template; known: ${[...files.keys()].sort().join(', ')}`);
    for (const [name, file] of overrides) files.set(name, file);
  }
  const hb = createHandlebars();
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  for (const [name, file] of files) {
    const text = readFileSync(file, 'utf8');
    if (path.basename(name).startsWith('_')) hb.registerPartial(name, text);
    compiled.set(name, hb.compile(text, { strict: true, noEscape: true }));
  }
  const render: Render = (name, view) => {
    const template = compiled.get(name);
    if (!template) throw new Error(`no template named ${name}`);
    return template(view);
  };
  return { render, names: [...files.keys()].sort() };
}
