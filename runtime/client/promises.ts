/**
 * The promises the client's methods return: await one for the data, call `withResponse()` for the
 * `Response` too, and iterate a list's promise (`for await`) over every item of every page.
 * @module
 */
import { InvalidResponseError } from "./failures.js";

/** Parsed data beside the `Response` it came from (its body already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** What every list query takes besides its filters. */
export interface ListParams {
  /** Items per page (the server lowers a larger one to its maximum). */
  limit?: number;
  /** A page's `next_cursor`, to fetch the page after it. */
  cursor?: string;
}

/** One page of a list. */
export interface Page<T> {
  data: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/**
 * The promise of a request: await it for the data, or call `withResponse()` for the `Response` too.
 * The request starts at once, like any promise.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  constructor(private readonly raw: Promise<WithResponse<T>>) {}

  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.raw.then((r) => r.data).then(onFulfilled, onRejected);
  }

  catch<B = never>(
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<T | B> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** The data and the `Response` (status, headers). */
  withResponse(): Promise<WithResponse<T>> {
    return this.raw;
  }
}

/**
 * The promise of a list page: await it for one page, or iterate it (`for await`) over every item of every
 * page, following `next_cursor`. A server that hands out a cursor it already gave ends the walk with an
 * {@link InvalidResponseError} instead of looping forever.
 */
export class PagePromise<T>
  extends ApiPromise<Page<T>>
  implements AsyncIterable<T>
{
  constructor(
    raw: Promise<WithResponse<Page<T>>>,
    private readonly next: (cursor: string) => PagePromise<T>,
  ) {
    super(raw);
  }

  /** Every page, this one first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    for (let p: PagePromise<T> | null = this; p;) {
      const { data: page, response }: WithResponse<Page<T>> =
        await p.withResponse();
      yield page;
      const cursor: string | null = page.next_cursor;
      if (cursor !== null && seen.has(cursor))
        throw new InvalidResponseError(
          `${response.status}: the server repeated the cursor ${JSON.stringify(cursor)}; stopped walking the list (${response.url})`,
          response.status,
          response.headers,
          null,
        );
      if (cursor !== null) seen.add(cursor);
      p = cursor !== null ? this.next(cursor) : null;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}
