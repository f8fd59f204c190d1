/**
 * End to end over HTTP on the memory store: every rule of list queries on the books fixture (every operator,
 * sorts with ties and stable pages, cursors bound to their query, masks, expansion with the caller's credential in
 * the caller's version, one batch read per page), each refusal a 400 problem+json naming the parameter and what is
 * allowed, and the handler's query parsed, typed and in the newest version's names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInto, importServer, registerOf, start, type Answer, type Running } from '../server/helpers.ts';
import { BOOKS_API, author, book, booksAuthenticate, ids, type Calls } from './books.ts';

let api: Running;
const calls: Calls = { list: [], getMany: 0, get: 0 };

beforeAll(async () => {
  const mod = await importServer(await generateInto('books', BOOKS_API));
  const handlers = mod.createMemoryHandlers({
    authors: [author(1, 'Ada', 'GB'), author(2, 'Bo', 'SE'), author(3, 'Cy')],
    books: [
      book(1, { title: 'Alpha', author: 1, price: 10, pages: 100, genre: 'poetry', published: '2020-01-01', signed: true }),
      book(2, { title: 'Beta', author: 2, price: 15.5, genre: 'drama', published: '2021-06-01' }),
      book(3, { title: 'Gamma', author: 1, price: 20, pages: 300, genre: 'novel', published: '2021-06-01' }),
      book(4, { title: 'Delta', author: 3, price: 0, pages: 50, genre: 'poetry', published: '2019-03-15', signed: true }),
      book(5, { title: 'Epsilon', author: 99, price: 15.5, pages: 300, genre: 'drama', published: '2022-12-31' }),
    ],
  }) as Record<string, Record<string, (...args: never[]) => unknown>>;
  const books = handlers['books']!;
  const authors = handlers['authors']!;
  const list = books['list']!.bind(books);
  books['list'] = ((query: never, ctx: never) => (calls.list.push(query), list(query, ctx))) as never;
  const getMany = authors['getMany']!.bind(authors);
  authors['getMany'] = ((ids: never, ctx: never) => (calls.getMany++, getMany(ids, ctx))) as never;
  api = await start((app) => registerOf(mod, 'Books')(app, handlers, { authenticate: booksAuthenticate, rateLimit: false }));
});
afterAll(() => api.close());

const get = (path: string, token: string | null = 'all'): Promise<Answer> => api.call('GET', path, { token });
const errorOf = (a: Answer) => (a.body['errors'] as { pointer: string; detail: string; parameter: string; allowed?: string[] }[])[0]!;

describe('filters', () => {
  it.each([
    ['price=15.5', [2, 5]],
    ['price[ne]=15.5', [1, 3, 4]],
    ['price[in]=0,20', [3, 4]],
    ['price[gt]=15.5', [3]],
    ['price[gte]=15.5', [2, 3, 5]],
    ['price[lt]=15.5', [1, 4]],
    ['price[lte]=10', [1, 4]],
    ['price[gte]=10&price[lt]=20', [1, 2, 5]],
    ['genre[in]=poetry,drama', [1, 2, 4, 5]],
    ['genre[ne]=drama', [1, 3, 4]],
    ['genre=drama', [2, 5]],
    ['signed=true', [1, 4]],
    ['signed[ne]=true', [2, 3, 5]],
    ['title[gte]=Delta&title[lt]=Gamma', [4, 5]],
    ['published[gte]=2021-06-01', [2, 3, 5]],
    ['pages[gte]=100&pages[lte]=300', [1, 3, 5]],
    ['addedAt[gt]=2026-01-01T01:00:03%2B01:00', [4, 5]],
    ['author[in]=00000000-0000-4000-a000-000000000001,00000000-0000-4000-a000-000000000003&genre=poetry', [1, 4]],
  ])('v2 ?%s keeps exactly those books (a filter never matches an absent value)', async (query, expected) => {
    const answer = await get(`/v2/books?${query}&sort=title`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ids(answer).sort()).toEqual(expected);
  });

  it('refuses an operator the field does not take, naming the parameter and the filters it has', async () => {
    const answer = await get('/v2/books?price[like]=1');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(errorOf(answer)).toMatchObject({ pointer: '/query/price[like]', parameter: 'price[like]' });
    expect(errorOf(answer).allowed).toEqual(['price', 'price[eq]', 'price[ne]', 'price[in]', 'price[gt]', 'price[gte]', 'price[lt]', 'price[lte]']);
    expect(errorOf(answer).detail).toContain("price has no 'like' operator");
  });

  it('is part of each version: an operator added in v2 is refused by v1', async () => {
    expect((await get('/v2/books?price[in]=10')).status).toBe(200);
    const v1 = await get('/v1/books?price[in]=10');
    expect(v1.status).toBe(400);
    expect(errorOf(v1).pointer).toBe('/query/price[in]');
  });

  it('refuses a filter on a field that has none, a write-only field, a bad value, a value given twice, and over 100 values', async () => {
    for (const [query, pointer] of [
      ['pages=3', '/query/pages'],
      ['secret=x', '/query/secret'],
      ['price[gte]=cheap', '/query/price[gte]'],
      ['price[gte]=1e3', '/query/price[gte]'],
      ['genre=drama&genre=poetry', '/query/genre'],
      ['genre=drama&genre[eq]=poetry', '/query/genre[eq]'],
      ['genre[in]=', '/query/genre[in]'],
      [`price[in]=${Array.from({ length: 101 }, (_, i) => i).join(',')}`, '/query/price[in]'],
      ['published[gte]=2021-02-30', '/query/published[gte]'],
    ]) {
      const answer = await get(`/v2/books?${query}`);
      expect(answer.status, query).toBe(400);
      expect(errorOf(answer).pointer, query).toBe(pointer);
    }
    expect(errorOf(await get('/v2/books?genre=drama&genre=poetry')).detail).toContain('given more than once');
    expect(errorOf(await get('/v2/books?genre[eq]=drama&genre=drama')).detail).toBe('the eq filter on genre is given twice (as genre and genre[eq]); send one');
  });

  it('hands the handler the parsed query in the newest names: filters by field and operator, the sort ending with the id', async () => {
    calls.list.length = 0;
    await get('/v1/books?publishedOn[gte]=2020-01-01&price[gte]=10&price[lt]=20&sort=-publishedOn,title&fields=title');
    expect(calls.list[0]).toEqual({
      limit: 20,
      filter: { published: { gte: '2020-01-01' }, price: { gte: 10, lt: 20 } },
      sort: [
        { field: 'published', direction: 'desc' },
        { field: 'title', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
      fields: ['id', 'title'],
      expand: [],
    });
  });
});

describe('sort', () => {
  it('orders by the keys named, - for descending, ties broken by the id; without ?sort=, by defaultSort', async () => {
    expect(ids(await get('/v2/books?sort=-price,title'))).toEqual([3, 2, 5, 1, 4]);
    // Books 2 and 3 share a date: the id decides.
    expect(ids(await get('/v2/books?sort=-published'))).toEqual([5, 2, 3, 1, 4]);
    expect(ids(await get('/v2/books'))).toEqual([5, 2, 3, 1, 4]);
    // Absent pages sort last in either direction.
    expect(ids(await get('/v1/books?sort=-pages'))).toEqual([3, 5, 1, 4, 2]);
  });

  it('walks pages of one sort with every book exactly once, in order', async () => {
    const seen: number[] = [];
    let next: string | null = null;
    do {
      const answer: Answer = await get(`/v2/books?sort=price&limit=2${next ? `&cursor=${encodeURIComponent(next)}` : ''}`);
      expect(answer.status).toBe(200);
      seen.push(...ids(answer));
      next = answer.body['next_cursor'] as string | null;
    } while (next !== null);
    expect(seen).toEqual([4, 1, 2, 5, 3]);
  });

  it('refuses a key that is not sortable (in this version), listing the keys there are', async () => {
    const unknown = await get('/v2/books?sort=genre');
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown)).toMatchObject({ pointer: '/query/sort', parameter: 'sort' });
    expect(errorOf(unknown).allowed).toEqual(['title', '-title', 'price', '-price', 'published', '-published', 'addedAt', '-addedAt']);
    expect((await get('/v1/books?sort=pages')).status).toBe(200);
    expect(errorOf(await get('/v2/books?sort=-pages')).pointer).toBe('/query/sort');
    expect(errorOf(await get('/v2/books?sort=title,-title')).detail).toContain('sorts by title twice');
  });
});

describe('cursors', () => {
  it('carry the sort and filters they were made under: another sort or filter answers 400 cursor_mismatch', async () => {
    const first = await get('/v2/books?sort=price&genre=drama&limit=1');
    const cursor = encodeURIComponent(first.body['next_cursor'] as string);
    expect((await get(`/v2/books?sort=price&genre=drama&limit=5&cursor=${cursor}`)).status).toBe(200);
    for (const other of ['sort=-price&genre=drama', 'sort=price&genre=poetry', 'sort=price', 'genre=drama']) {
      const answer = await get(`/v2/books?${other}&limit=1&cursor=${cursor}`);
      expect(answer.status, other).toBe(400);
      expect(answer.body).toMatchObject({ code: 'cursor_mismatch', errors: [{ pointer: '/query/cursor', parameter: 'cursor' }] });
    }
    expect((await get('/v2/books?cursor=garbage')).body).toMatchObject({ status: 400, code: 'invalid_cursor' });
  });
});

describe('fields', () => {
  it('answers only the fields named, plus the id, on list and get', async () => {
    const page = await get('/v2/books?fields=title,price&sort=title&limit=1');
    expect(page.body['data']).toEqual([{ id: book(1).id, title: 'Alpha', price: 10 }]);
    const one = await get(`/v1/books/${book(3).id}?fields=publishedOn`);
    expect(one.body).toEqual({ id: book(3).id, publishedOn: '2021-06-01' });
    expect(one.headers.get('etag')).toBe((await get(`/v1/books/${book(3).id}`)).headers.get('etag'));
  });

  it('refuses a name that is not a readable field of the version, write-only ones included', async () => {
    for (const path of ['/v2/books?fields=secret', `/v2/books/${book(1).id}?fields=secret`, '/v2/books?fields=publishedOn', '/v1/books?fields=published']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(errorOf(answer), path).toMatchObject({ pointer: '/query/fields' });
    }
    expect(errorOf(await get(`/v2/books/${book(1).id}?sort=title`))).toMatchObject({
      pointer: '/query/sort',
      detail: expect.stringContaining('a get reads fields, expand'),
    });
  });
});

describe('expand', () => {
  it('replaces the ref with the resource as the caller’s version shows it, reading each collection once per page', async () => {
    const before = calls.getMany;
    const page = await get('/v1/books?expand=author&sort=title&fields=title');
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(calls.getMany).toBe(before + 1);
    const items = page.body['data'] as Record<string, unknown>[];
    expect(items[0]).toEqual({ id: book(1).id, title: 'Alpha', author: { id: author(1, 'Ada').id, fullName: 'Ada', country: 'GB' } });
    // The expanded author equals a GET of it in that version.
    expect(items[0]!['author']).toEqual((await get(`/v1/authors/${author(1, 'Ada').id}`)).body);
    // Book 5's author does not exist: the ref holds null.
    expect(items.find((b) => b['id'] === book(5).id)!['author']).toBeNull();
    expect(((await get('/v2/books?expand=author&sort=title&limit=1')).body['data'] as Record<string, unknown>[])[0]!['author']).toMatchObject({ name: 'Ada' });
  });

  it('expands the answers of get, create, update, replace', async () => {
    const one = await get(`/v2/books/${book(2).id}?expand=author`);
    expect(one.body['author']).toMatchObject({ name: 'Bo' });
    const body = { title: 'Zeta', author: author(2, 'Bo').id, price: 3, genre: 'novel', published: '2024-01-01' };
    const made = await api.call('POST', '/v2/books?expand=author', { body, token: 'all' });
    expect(made.status).toBe(201);
    expect(made.body['author']).toMatchObject({ name: 'Bo' });
    const id = made.body['id'] as string;
    expect((await api.call('PATCH', `/v2/books/${id}?expand=author`, { body: { price: 4 }, token: 'all' })).body['author']).toMatchObject({ name: 'Bo' });
    expect((await api.call('PUT', `/v2/books/${id}?expand=author`, { body, token: 'all' })).body['author']).toMatchObject({ name: 'Bo' });
    expect((await api.call('DELETE', `/v2/books/${id}`, { token: 'all' })).status).toBe(204);
  });

  it('needs the referenced collection’s read scope (403), and a credential (401), checked before the handler runs', async () => {
    const forbidden = await get('/v2/books?expand=author', 'books');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'insufficient_scope', scopes: ['authors:read'] });
    expect((await get('/v2/books?expand=author', null)).status).toBe(401);
    expect((await get('/v2/books', null)).status).toBe(200);
    const body = { title: 'Eta', author: author(2, 'Bo').id, price: 3, genre: 'novel', published: '2024-01-01' };
    const refused = await api.call('POST', '/v2/books?expand=author', { body, token: 'books' });
    expect(refused.status).toBe(403);
    expect(ids(await get('/v2/books?title=Eta'))).toEqual([]);
  });

  it('refuses a name that is not an expandable ref', async () => {
    const answer = await get('/v2/books?expand=genre');
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatchObject({ pointer: '/query/expand', allowed: ['author'] });
  });
});
