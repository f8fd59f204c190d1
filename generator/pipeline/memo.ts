/**
 * @module The interface of the one cache around the pipeline's stages: a text computed from an input, kept under
 * the hash of what computed it and from what. Stages that are worth caching (rendering a file or one of its parts,
 * judging the lock, compiling a template) run through a {@link Memo}; the render cache (`render-cache.ts`) is its
 * only implementation on disk.
 */

/**
 * What a memoised text is: `part` (the default), a piece output files are assembled from (an OpenAPI
 * document's collection, CHANGES.md's comparison of one collection), which a cache keeps for later runs even
 * when a run does not need it; `file`, a whole output file's text, which the file's header stands for once
 * written, so a cache counts it as a render and never keeps it (nor looks it up); `fact`, a small answer that is
 * no rendered text (a collection's summary, the lock's verdict), kept like a part but not counted as a render.
 */
export type MemoHolds = 'file' | 'part' | 'fact';

/**
 * Returns `compute()`, or the text it returned before for the same `kind` and `input` (`input` must be everything
 * the text depends on, besides restgen itself and its templates).
 */
export type Memo = (kind: string, input: string, compute: () => string, holds?: MemoHolds) => string;
