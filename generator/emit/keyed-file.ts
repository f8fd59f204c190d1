/**
 * @module Output files as emitters describe them: what renders a file (`kind`), everything its text depends on
 * besides restgen itself (`input`), the parts it is assembled from, and the function that renders it. Nothing is
 * rendered until the text is asked for; the pipeline keys a file by {@link fileKey} and records the key in the
 * file's header, so a file whose recorded key is unchanged is known to be up to date without rendering it.
 */
import { hash } from 'node:crypto';
import type { Render, TemplateViews } from '../templates/load-templates.ts';
import type { FileLanguage, OutputFile, RenderPart } from './types.ts';

/** The hash a text rendered from `input` by `kind` is known under. */
export function memoKey(kind: string, input: string): string {
  // One-shot: a run keys every output file, where a Hash object per call costs more than the hashing.
  return hash('sha256', `${kind}\0${input}`, 'base64url').slice(0, 32);
}

/** A part's text as the caller has it: computed, or through a cache. */
export type PartText = (part: RenderPart) => string;

/** A part's text without a cache: its own parts first. */
export const computed: PartText = (part) => part.compute((part.parts ?? []).map(computed));

/**
 * Everything a file's text depends on: its input, the keys of the parts it is assembled from, and the texts of
 * its facts (see {@link RenderPart.fact}).
 */
export function fileInput(file: Pick<OutputFile, 'input' | 'parts'>, textOf: PartText = computed): string {
  if (file.parts === undefined || file.parts.length === 0) return file.input;
  return `${file.input}\0${file.parts.map((p) => (p.fact ? memoKey('fact', textOf(p)) : memoKey(p.kind, p.input))).join(' ')}`;
}

/** A file's key: the hash of what renders it and from what. */
export const fileKey = (file: Pick<OutputFile, 'kind' | 'input' | 'parts'>, textOf: PartText = computed): string => memoKey(file.kind, fileInput(file, textOf));

/** What describes a file, besides the function that renders it. */
export interface FileSpec {
  readonly path: string;
  readonly language: FileLanguage;
  readonly kind: string;
  readonly input: string;
  readonly parts?: readonly RenderPart[];
  readonly preformatted?: boolean;
}

/** A file described by `spec`, rendered by `render` from its parts' texts. */
export function outputFile(spec: FileSpec, render: (parts: readonly string[]) => string): OutputFile {
  let text: string | undefined;
  // A literal with a getter: the text is rendered on first read, and never when no one reads it.
  return {
    ...spec,
    render,
    get content(): string {
      return (text ??= render((spec.parts ?? []).map(computed)));
    },
  };
}

/** A file rendered from a template and a view model (the view is its input: it holds no source locations). */
export function templateFile<K extends keyof TemplateViews>(
  path: string,
  name: K,
  view: TemplateViews[K],
  render: Render,
  language: FileLanguage = 'typescript',
): OutputFile {
  return outputFile({ path, language, kind: `render ${name}`, input: JSON.stringify(view) }, () => render(name, view));
}

/** The kind of a file whose text is given as is: nothing renders it. */
export const COPY = 'copy';

/** A file whose text is given as is (restgen's client runtime, copied verbatim): known by its text. */
export function copiedFile(path: string, text: string, language: FileLanguage = 'typescript'): OutputFile {
  return outputFile({ path, language, kind: COPY, input: text, preformatted: true }, () => text);
}
