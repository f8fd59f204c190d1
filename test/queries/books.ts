/**
 * @module The books fixture's data and credentials for the list-query tests: authors and books with fixed ids
 * (numbered, so a test reads which books a page holds), and tokens with and without the authors' read scope.
 */
import type { Answer } from '../server/helpers.ts';

/** The fixture's API module. */
export const BOOKS_API = new URL('./fixtures/books-api.ts', import.meta.url).pathname;

/** What the spied handlers saw: each list query, and how often authors were read. */
export interface Calls {
  readonly list: unknown[];
  getMany: number;
  get: number;
}

const uuid = (group: string, n: number) => `00000000-0000-4000-${group}-${String(n).padStart(12, '0')}`;

/** Author `n` (newest shape). */
export const author = (n: number, name: string, country?: string) => ({ id: uuid('a000', n), name, ...(country ? { country } : {}) });

/** What a book is made of in the tests; `author` by number. */
interface BookData {
  readonly title: string;
  readonly author: number;
  readonly price: number;
  readonly pages?: number;
  readonly genre: 'poetry' | 'drama' | 'novel';
  readonly published: string;
  readonly signed?: boolean;
}

/** Book `n` (newest shape), added `n` seconds into 2026 (in UTC+01:00 for odd `n`). */
export function book(n: number, data?: BookData) {
  const { author: by, signed = false, ...rest } = data ?? { title: '', author: 0, price: 0, genre: 'novel' as const, published: '' };
  const at = n % 2 === 1 ? `2026-01-01T01:00:0${n}+01:00` : `2026-01-01T00:00:0${n}Z`;
  return { id: uuid('b000', n), ...rest, author: uuid('a000', by), addedAt: at, signed };
}

/** The numbers of the books a page holds, in order. */
export const ids = (answer: Answer): number[] => ((answer.body['data'] ?? []) as { id: string }[]).map((b) => Number(b.id.slice(-4)));

/** `all`: every scope; `books`: the books' scopes only; anything else is refused. */
export function booksAuthenticate({ token }: { token: string }): { id: string; scopes: string[] } | null {
  if (token === 'all') return { id: token, scopes: ['books:read', 'books:write', 'authors:read', 'authors:write'] };
  if (token === 'books') return { id: token, scopes: ['books:read', 'books:write'] };
  return null;
}
