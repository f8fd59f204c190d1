/**
 * The promises the client's methods return: real promises of the data, with `withResponse()` for the
 * `Response` too, and a list's promise that also iterates (`for await`) over every item of every page.
 * @module
 */
import { InvalidResponseError } from "./failures.js";

/** Parsed data beside the `Response` it came from (its body already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** What every list query takes besides its filters, sort, fields and expansions. */
export interface ListParams {
  /** Items per page (the server lowers a larger one to its maximum). */
  limit?: number;
  /** A page's `next_cursor`, to fetch the page after it (with the same filters and sort). */
  cursor?: string;
}

/**
 * One field's filter in a list query: a value (equality, when the field takes `eq`), or operators, each with its
 * value (`in`: a list); several combine with AND. `{ price: { gte: 10, lt: 20 } }`, `{ genre: { in: ["poetry"] } }`.
 */
export type Filter<T, O extends string> =
  | ("eq" extends O ? T : never)
  | { [K in O]?: K extends "in" ? readonly T[] : T };

/** One page of a list. */
export interface Page<T> {
  data: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** A real `Promise` of the data (it goes wherever a `Promise<T>` does), with the `Response` too on request. */
export interface ApiPromise<T> extends Promise<T> {
  /** The data and the `Response` (status, headers). */
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * The promise of a list page: await it for one page, or iterate it (`for await`) over every item of every
 * page, following `next_cursor`.
 */
export interface PagePromise<T> extends ApiPromise<Page<T>>, AsyncIterable<T> {
  /**
   * Every page, this one first. A server that hands out a cursor it already gave ends the walk with an
   * {@link InvalidResponseError} instead of looping forever.
   */
  pages(): AsyncGenerator<Page<T>, void, undefined>;
}

/** The promise of a request whose answer `raw` brings. */
export function apiPromise<T>(raw: Promise<WithResponse<T>>): ApiPromise<T> {
  const data = raw.then((r) => r.data) as ApiPromise<T>;
  data.withResponse = () => {
    // `data` fails too, with the same error: the caller handles that one through the promise returned.
    data.catch(() => {});
    return raw;
  };
  return data;
}

/** The promise of the list page `raw` brings; `next` asks for the page after a cursor. */
export function pagePromise<T>(
  raw: Promise<WithResponse<Page<T>>>,
  next: (cursor: string) => ApiPromise<Page<T>>,
): PagePromise<T> {
  const first = apiPromise(raw);
  async function* pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    for (let p = first; ;) {
      const { data: page, response } = await p.withResponse();
      yield page;
      const cursor = page.next_cursor;
      if (cursor === null) return;
      // A cursor already seen leaves the set as it was.
      if (seen.size === seen.add(cursor).size)
        throw new InvalidResponseError(
          `the server repeated the cursor ${cursor}`,
          response,
          response.url,
        );
      p = next(cursor);
    }
  }
  return Object.assign(first, {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.data;
    },
  });
}
