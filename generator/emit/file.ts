/**
 * @module How emitters describe their files: a renderer applied to plain data ({@link outputFile}), a template
 * applied to its view ({@link templateFile}), a text copied as is ({@link copiedFile}), and the slice of the API a
 * file of one collection is generated from ({@link oneCollection}). Nothing is rendered until the text is asked for.
 */
import type { Render, TemplateViews } from '../templates/load-templates.ts';
import { renderer, type FileLanguage, type OutputFile, type Renderer, type RenderUse } from './types.ts';

/** How a file is formatted: its language (TypeScript by default) and whether its text is already laid out. */
export interface FileFormat {
  readonly language?: FileLanguage;
  readonly preformatted?: boolean;
}

/** `use` without a cache: templates by `template`, every call run as it comes. */
export function uncached(template: Render): RenderUse {
  const use: RenderUse = { template, call: (r, data) => r.render(data, use) };
  return use;
}

const noTemplates: Render = (name) => {
  throw new Error(`internal error: template ${name} rendered without templates`);
};

/** `r` applied to `data` at `path`; `template` is what its `content` renders templates with. */
export function outputFile<D>(path: string, r: Renderer<D>, data: D, template: Render = noTemplates, format: FileFormat = {}): OutputFile<D> {
  let text: string | undefined;
  return {
    path,
    language: format.language ?? 'typescript',
    ...(format.preformatted ? { preformatted: true } : {}),
    renderer: r,
    data,
    // Rendered on first read, and never when no one reads it.
    get content(): string {
      return (text ??= r.render(data, uncached(template)));
    },
  };
}

/** A template and the view it fills. */
interface TemplateData<K extends keyof TemplateViews = keyof TemplateViews> {
  readonly name: K;
  readonly view: TemplateViews[K];
}

const TEMPLATE = renderer('template', ({ name, view }: TemplateData, use) => use.template(name, view));

/** A file rendered from a template and its view model (the view is what it is generated from). */
export function templateFile<K extends keyof TemplateViews>(
  path: string,
  name: K,
  view: TemplateViews[K],
  render: Render,
  language: FileLanguage = 'typescript',
): OutputFile {
  return outputFile(path, TEMPLATE, { name, view } as TemplateData, render, { language });
}

const COPY = renderer('copy', (text: string) => text);

/** A file whose text is given as is (restgen's client runtime, copied verbatim). */
export function copiedFile(path: string, text: string, language: FileLanguage = 'typescript'): OutputFile {
  return outputFile(path, COPY, text, noTemplates, { language, preformatted: true });
}

/**
 * The API (or one version of it) as a file of collection `c` sees it: every setting of the API, and of its
 * collections only `c`. A file generated from this slice cannot depend on another collection.
 */
export function oneCollection<A extends { readonly collections: readonly C[] }, C>(api: A, c: C): A {
  return { ...api, collections: [c] };
}
