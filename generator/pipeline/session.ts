/**
 * @module A generate session: what one resident process (`restgen generate --watch`) keeps in memory from one run of
 * `generate` to the next: each collection's built IR under the fingerprint of its definition (so an edit builds only
 * what it changed, see `collection-reuse.ts`), and the formatter with prettier and the configuration it resolved.
 * Everything else, the cache included, is read from disk by each run, so a session's run writes exactly what a fresh
 * run writes.
 */
import { createPrettierFormatter, type Formatter } from '../format/formatter.ts';
import { createCollectionReuse, type CollectionReuse } from '../model/collection-reuse.ts';

/** What one resident process keeps across runs of `generate`. Create with {@link createGenerateSession}. */
export interface GenerateSession {
  readonly formatter: Formatter;
  /** @internal Built collections of the last build. */
  readonly collections: CollectionReuse;
}

/** A new, empty session; `formatter` defaults to a prettier formatter of its own. */
export function createGenerateSession(formatter: Formatter = createPrettierFormatter()): GenerateSession {
  return { formatter, collections: createCollectionReuse() };
}
