/**
 * @module Output files keyed by what they are rendered from. A keyed file carries `key`, a hash of
 * everything its text depends on besides restgen itself (a template's name and its view model, or an
 * emitter's kind and the IR it reads), and renders its text only when `content` is first read. The writer
 * records the key in the file's header, so a file whose recorded key is unchanged is known to be up to
 * date without rendering it: one changed field renders only the files it reaches, and `check` without any
 * cache reads headers instead of rendering the API.
 */
import { hash } from 'node:crypto';
import type { TemplateViews } from '../templates/load-templates.ts';
import type { EmitOptions, FileLanguage, Memo, OutputFile } from './types.ts';

/** The hash a text rendered from `input` by `kind` is known under (`input`: data without source locations, or its text). */
export function memoKey(kind: string, input: unknown): string {
  // One-shot: a run keys every output file, where a Hash object per call costs more than the hashing.
  return hash('sha256', `${kind}\0${typeof input === 'string' ? input : JSON.stringify(input)}`, 'base64url').slice(0, 32);
}

/** Where a keyed file goes and what it is rendered from. */
export interface KeyedSpec {
  readonly path: string;
  readonly language: FileLanguage;
  /** What renders it (`zod collection`, `render client/index`): part of the key. */
  readonly kind: string;
  /** Everything the text depends on, as text (JSON of IR hashes, names, view models). */
  readonly input: string;
  readonly preformatted?: boolean;
}

/**
 * A file whose text `compute` renders on first read (through `memo`, the render cache, when given). The
 * same `kind` and `input` must always render the same text.
 */
export function keyedFile(spec: KeyedSpec, compute: () => string, memo: Memo | undefined): OutputFile {
  let text: string | undefined;
  const file: OutputFile = {
    path: spec.path,
    language: spec.language,
    key: memoKey(spec.kind, spec.input),
    get content(): string {
      return (text ??= memo ? memo(spec.kind, spec.input, compute, 'file') : compute());
    },
    ...(spec.preformatted ? { preformatted: true } : {}),
  };
  return file;
}

/** A file rendered from a template and a view model (the view is its key: it holds no source locations). */
export function templateFile<K extends keyof TemplateViews>(
  path: string,
  name: K,
  view: TemplateViews[K],
  options: Pick<EmitOptions, 'render' | 'memo'>,
  language: FileLanguage = 'typescript',
): OutputFile {
  // `render` already goes through the render cache under this kind and input.
  return keyedFile({ path, language, kind: `render ${name}`, input: JSON.stringify(view) }, () => options.render(name, view), undefined);
}

/**
 * `file`, marked as laid out exactly as prettier prints it; a keyed file keeps rendering lazily. (A literal with a
 * getter: copying property descriptors costs more than the rest of keying a file, and every file passes here.)
 */
export function asPreformatted(file: OutputFile): OutputFile {
  if (file.preformatted) return file;
  const { path: at, language, key } = file;
  return key === undefined
    ? { path: at, language, preformatted: true, get content() { return file.content; } }
    : { path: at, language, key, preformatted: true, get content() { return file.content; } };
}
