/**
 * @module Deliberately broken servers: each one the generated in-memory handlers (or server) with one realistic
 * mistake a team makes when it writes its own handlers on a database, and the checks that must catch it. A
 * handler that awaits `latency()` stands for a database round trip: long enough for concurrent requests to
 * read the same state before any of them writes. It is counted in turns of the event loop, not in time: the
 * conformance run and the server share this process, and each turn reads whatever requests have arrived, so
 * a busy machine cannot let a write through before the concurrent reads.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HttpProblem, PreconditionFailed, createMemoryCollection, type HandlerContext, type MemorySpec } from '@restgen/runtime';
import type { ApiIR } from '../../generator/model/ir.ts';
import type { CheckId } from '@restgen/conformance';
import { SHOP_MIGRATIONS } from '../server/helpers.ts';
import type { Handlers } from './helpers.ts';

type Fn = (...args: unknown[]) => unknown;
type Row = Record<string, unknown>;

/** A broken server: how it is built, and the checks that must fail against it. */
export interface Bug {
  readonly name: string;
  /** What a team wrote, and how to fix it (the test's title). */
  readonly story: string;
  /** Checks that must fail. */
  readonly caughtBy: readonly CheckId[];
  /** The collections (newest names) and versions a run needs to show it (a narrower run is faster). */
  readonly only?: readonly string[];
  readonly versions?: readonly string[];
  readonly wrap?: (handlers: Handlers, dir: string, ir: ApiIR) => Handlers | Promise<Handlers>;
  readonly mount?: (app: FastifyInstance, handlers: () => Handlers) => void;
  readonly options?: object;
}

/** A database round trip: 100 turns of the event loop, each of which reads the requests that have arrived. */
async function latency(): Promise<void> {
  for (let turn = 0; turn < 100; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const call = (handlers: Handlers, collection: string, op: string, ...args: unknown[]): unknown => (handlers[collection]![op] as unknown as Fn)(...args);

/** `handlers` with `replace(collection, op)` applied to every collection that has `op`. */
function everywhere(handlers: Handlers, op: string, replace: (collection: string, inner: Handlers[string]) => Fn): Handlers {
  const out: Handlers = {};
  for (const [name, ops] of Object.entries(handlers)) out[name] = op in ops ? { ...ops, [op]: replace(name, ops) as never } : ops;
  return out;
}

/** The generated memory spec of a collection (`server/collections/<name>.ts`). */
async function specOf(dir: string, collection: string): Promise<MemorySpec> {
  return ((await import(path.join(dir, 'server/collections', `${collection}.ts`))) as { memory: MemorySpec }).memory;
}

/**
 * What a whole-row write makes of the fields a patch does not send: a field with a default gets it, an optional
 * one is dropped, a required one keeps its value.
 */
function rowWithout(ir: ApiIR, collection: string, current: Row, patch: Row): Row {
  const row: Row = { ...current };
  for (const f of ir.collections.find((c) => c.name === collection)!.fields) {
    if (f.readOnly || f.name in patch || f.removedIn !== undefined) continue;
    if (f.default !== undefined) row[f.name] = f.default.value;
    else if (f.optional) delete row[f.name];
  }
  return { ...row, ...patch };
}

/** Updates check If-Match against the row they read, await, and write without the condition. */
const nonAtomicUpdate: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'update', (c, inner) => async (id: unknown, patch: unknown, ctx: unknown) => {
    const current = call(handlers, c, 'get', id);
    if (current instanceof HttpProblem) return current;
    const context = ctx as HandlerContext;
    if (context.condition && !context.condition.matches(current as object)) return new PreconditionFailed();
    await latency();
    return (inner['update'] as unknown as Fn)(id, patch, { ...context, condition: null });
  });

/** Lists newest first with an offset as the cursor. */
const offsetCursor: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'list', (_c, inner) => (query: unknown) => {
    const { limit, cursor, ...filters } = query as { limit: number; cursor?: string };
    const all = (inner['list'] as unknown as Fn)({ ...filters, limit: 1e9 }) as { data: Row[] };
    const newestFirst = [...all.data].reverse();
    const match = cursor === undefined ? ['', '0'] : /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
    if (!match) return new HttpProblem(400, 'bad_cursor', 'The cursor is not one this server issued.');
    const offset = Number(match[1]);
    const next = offset + limit < newestFirst.length ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null;
    return { data: newestFirst.slice(offset, offset + limit), next_cursor: next };
  });

/** Updates write the whole row: unsent fields fall back to their defaults or disappear. */
const patchWritesEveryColumn: Bug['wrap'] = (handlers, _dir, ir) =>
  everywhere(handlers, 'update', (c, inner) => (id: unknown, patch: unknown, ctx: unknown) => {
    const current = call(handlers, c, 'get', id);
    if (current instanceof HttpProblem) return current;
    // The memory store's replace writes the whole row, as the mistake does.
    return (inner['replace'] as unknown as Fn)(id, rowWithout(ir, c, current as Row, patch as Row), ctx);
  });

/** Replaces merge the body into the stored row. */
const replaceMerges: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'replace', (_c, inner) => (id: unknown, body: unknown, ctx: unknown) => (inner['update'] as unknown as Fn)(id, body, ctx));

/** Lists ignore their filters. */
const ignoredFilter: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'list', (_c, inner) => (query: unknown) => {
    const { limit, cursor } = query as { limit: number; cursor?: string };
    return (inner['list'] as unknown as Fn)({ limit, ...(cursor !== undefined ? { cursor } : {}) });
  });

/** Deletes answer 204 and keep the record. */
const deleteKeeps: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'delete', (c) => (id: unknown) => {
    const found = call(handlers, c, 'get', id);
    return found instanceof HttpProblem ? found : undefined;
  });

/** Updates write, then answer the record as it was before. */
const staleUpdate: Bug['wrap'] = (handlers) =>
  everywhere(handlers, 'update', (c, inner) => (id: unknown, patch: unknown, ctx: unknown) => {
    const before = call(handlers, c, 'get', id);
    const after = (inner['update'] as unknown as Fn)(id, patch, ctx);
    return after instanceof HttpProblem ? after : before;
  });

/** `collection` without its unique index. */
const noUniqueIndex =
  (collection: string): Bug['wrap'] =>
  async (handlers, dir) => ({
    ...handlers,
    [collection]: createMemoryCollection<Row>({ ...(await specOf(dir, collection)), unique: [] }) as unknown as Handlers[string],
  });

/** A proxy that drops the Idempotency-Key header. */
const dropIdempotencyKey: Bug['mount'] = (app) =>
  app.addHook('onRequest', async (request) => {
    delete request.headers['idempotency-key'];
  });

/** A database column of 32-bit integers under a field the documents allow up to 2^53 − 1: a larger value fails the insert. */
const narrowColumn =
  (collection: string, field: string): Bug['wrap'] =>
  (handlers) => {
    const write =
      (op: string) =>
      (...args: unknown[]) => {
        const body = args.find((a): a is Row => typeof a === 'object' && a !== null && field in a);
        const value = body?.[field];
        if (typeof value === 'number' && value > 2 ** 31 - 1) throw new Error(`value "${value}" is out of range for type integer`);
        return call(handlers, collection, op, ...args);
      };
    return { ...handlers, [collection]: { ...handlers[collection]!, create: write('create'), update: write('update') } as Handlers[string] };
  };

/** A hook after the server's shaping adds a column the API does not declare to every answer of `collection`. */
const leakColumn =
  (collection: string): Bug['mount'] =>
  (app) =>
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.split('?')[0]!.includes(`/${collection}`) || reply.statusCode >= 300 || typeof payload !== 'string' || !payload.startsWith('{'))
        return payload;
      const body = JSON.parse(payload) as Row & { data?: Row[] };
      const leak = (row: Row) => ({ ...row, internal_score: 0.87 });
      return JSON.stringify(Array.isArray(body.data) ? { ...body, data: body.data.map(leak) } : leak(body));
    });

/** The broken servers of the shop example. */
export const SHOP_BUGS: readonly Bug[] = [
  {
    name: 'undeclared field leaked',
    story:
      "a hook after the server's shaping decorates every order it answers with the row's internal_score column, which no version declares (fix: answer only what the contract declares)",
    caughtBy: ['declared-fields'],
    only: ['orders'],
    versions: ['v3'],
    mount: leakColumn('orders'),
  },
  {
    name: 'column narrower than the contract',
    story:
      'product_id is a 32-bit integer column while the documents allow up to 2^53 − 1, so a valid create answers 500 (fix: a bigint column, or declare the narrower bound in the API)',
    caughtBy: ['bounds'],
    only: ['orders'],
    versions: ['v3'],
    wrap: narrowColumn('orders', 'product_id'),
  },
  {
    name: 'non-atomic transition',
    story:
      'a transition reads the state, awaits the database, then writes the new state unconditionally (fix: UPDATE ... WHERE state IN (from states), and answer InvalidTransition when no row changed)',
    caughtBy: ['transitions-concurrent'],
    only: ['orders'],
    versions: ['v3'],
    async wrap(handlers, dir) {
      const spec = await specOf(dir, 'orders');
      const states = ['open', 'paid', 'shipped', 'cancelled', 'refunded'];
      const transitions = Object.fromEntries(Object.entries(spec.lifecycle!.transitions).map(([n, t]) => [n, { ...t, from: states }]));
      // A store that writes the state without looking at it: the runtime's own check of the loaded state is all.
      const store = createMemoryCollection<Row>({ ...spec, lifecycle: { ...spec.lifecycle!, transitions } }) as unknown as Handlers[string];
      const slow = Object.fromEntries(
        Object.keys(transitions).map((n) => [n, async (...args: unknown[]) => (await latency(), (store[n] as unknown as Fn)(...args))]),
      );
      return { ...handlers, orders: { ...store, ...slow } as Handlers[string] };
    },
  },
  {
    name: 'non-atomic conditional update',
    story:
      'an update checks If-Match against the row it read, awaits, then writes without the condition (fix: UPDATE ... WHERE etag = the If-Match, in the same statement)',
    caughtBy: ['if-match-update'],
    only: ['customers'],
    versions: ['v3'],
    wrap: nonAtomicUpdate,
  },
  {
    name: 'non-atomic conditional delete',
    story:
      'a delete checks If-Match against the row it read, awaits, then deletes the row whatever it holds now: a write that changed it meanwhile is deleted with it (fix: DELETE ... WHERE id = $1 AND revision = $2)',
    caughtBy: ['if-match-delete'],
    only: ['customers'],
    versions: ['v3'],
    wrap: (handlers) =>
      everywhere(handlers, 'delete', (c, inner) => async (id: unknown, ctx: unknown) => {
        const current = call(handlers, c, 'get', id);
        if (current instanceof HttpProblem) return current;
        const context = ctx as HandlerContext;
        if (context.condition && !context.condition.matches(current as object)) return new PreconditionFailed();
        await latency();
        const done = (inner['delete'] as unknown as Fn)(id, { ...context, condition: null });
        // A row a concurrent delete removed answers 412, as the server does for a write sent with If-Match: only
        // the delete that removes a row another request changed is left to catch.
        return done instanceof HttpProblem && done.status === 404 ? new PreconditionFailed() : done;
      }),
  },
  {
    name: 'offset cursor',
    story:
      'the list orders newest first and its cursor is an offset: a record created or deleted while a client pages moves every later one (fix: a keyset cursor, WHERE (created, id) < the last one seen)',
    caughtBy: ['pagination-concurrent'],
    only: ['orders'],
    versions: ['v3'],
    wrap: offsetCursor,
  },
  {
    name: 'PATCH writes every column',
    story: 'an update writes the whole row from the patch, so fields it does not send lose their values (fix: SET only the columns present in the patch)',
    caughtBy: ['update-partial'],
    only: ['orders'],
    versions: ['v3'],
    wrap: patchWritesEveryColumn,
  },
  {
    name: 'replace keeps old fields',
    story:
      'a replace merges the body into the stored row, so fields the body leaves out keep their old values (fix: write every column, unsent ones NULL or their default)',
    caughtBy: ['replace-complete'],
    only: ['customers'],
    versions: ['v3'],
    wrap: replaceMerges,
  },
  {
    name: 'delete does not delete',
    story: 'a delete answers 204 but only marks the row, and get still finds it (fix: delete it, or make every read skip deleted rows)',
    caughtBy: ['delete'],
    only: ['customers'],
    versions: ['v3'],
    wrap: deleteKeeps,
  },
  {
    name: 'missing unique check',
    story:
      'the table has no unique index on email, so a second customer with a taken email is created (fix: a unique constraint, its violation answered as Conflict)',
    caughtBy: ['unique'],
    only: ['customers'],
    versions: ['v3'],
    wrap: noUniqueIndex('customers'),
  },
  {
    name: 'ignored filter',
    story: 'the list forgets the WHERE clause of its filters and answers every record (fix: apply each filter the query carries)',
    caughtBy: ['filters'],
    only: ['orders'],
    versions: ['v3'],
    wrap: ignoredFilter,
  },
  {
    name: 'read-only field not assigned',
    story:
      'the insert leaves createdAt to a column default that does not exist, and the server runs with response checks off (fix: assign every read-only field in create)',
    caughtBy: ['read-only-assigned'],
    only: ['customers'],
    versions: ['v3'],
    options: { validateResponses: false },
    wrap: (handlers) => {
      const strip = (value: unknown): unknown => {
        if (value instanceof HttpProblem || typeof value !== 'object' || value === null) return value;
        const page = value as { data?: Row[] };
        if (Array.isArray(page.data)) return { ...page, data: page.data.map((r) => strip(r)) };
        const { createdAt: _dropped, ...rest } = value as Row;
        return rest;
      };
      const out: Handlers = {};
      for (const [c, ops] of Object.entries(handlers))
        out[c] = Object.fromEntries(
          Object.entries(ops).map(([op, fn]) => [op, (...args: unknown[]) => strip((fn as unknown as Fn)(...args))]),
        ) as Handlers[string];
      return out;
    },
  },
  {
    name: 'write-only field returned',
    story: "a response cache stores the database row and serves it on GET, password included, past the server's shaping (fix: cache the answer, never the row)",
    caughtBy: ['write-only-hidden'],
    only: ['customers'],
    versions: ['v3'],
    mount: (app, handlers) =>
      app.addHook('onSend', async (request, reply, payload) => {
        const m = /^\/v\d\/customers\/([0-9a-f-]{36})$/.exec(request.url);
        if (request.method !== 'GET' || !m || reply.statusCode !== 200) return payload;
        return JSON.stringify(call(handlers(), 'customers', 'get', m[1]));
      }),
  },
  {
    name: 'idempotency ignored',
    story:
      'a proxy in front of the server drops the Idempotency-Key header, so a retried create makes a second resource (fix: forward the header; with several instances, share the answers through Redis)',
    caughtBy: ['idempotent-create'],
    only: ['coupons'],
    versions: ['v3'],
    mount: dropIdempotencyKey,
  },
  {
    name: 'stale ETag',
    story: 'an update answers the row it read before writing, so the answer and its ETag show the old resource (fix: answer the row as written, RETURNING *)',
    caughtBy: ['etag'],
    only: ['coupons'],
    versions: ['v3'],
    wrap: staleUpdate,
  },
  {
    name: 'lossy migration hook',
    story:
      "v3 made orders.reference a string; the hook back to v2's number loses it, so v1 and v2 clients read back another reference than they wrote (fix: make down undo up)",
    caughtBy: ['versions', 'round-trip'],
    only: ['orders'],
    options: {
      migrations: { ...SHOP_MIGRATIONS, v3: { ...SHOP_MIGRATIONS.v3, orders: { reference: { up: SHOP_MIGRATIONS.v3.orders.reference.up, down: () => 0 } } } },
    },
  },
];

/** The broken servers of the header-versioning example (notes and labels). */
export const NOTES_BUGS: readonly Bug[] = [
  {
    name: 'offset cursor',
    story: 'notes are listed newest first with an offset cursor',
    caughtBy: ['pagination-concurrent'],
    only: ['notes'],
    versions: ['2025-06'],
    wrap: offsetCursor,
  },
  {
    name: 'PATCH writes every column',
    story: 'a note update resets the fields it does not send to their defaults',
    caughtBy: ['update-partial'],
    only: ['notes'],
    versions: ['2025-06'],
    wrap: patchWritesEveryColumn,
  },
  {
    name: 'stale ETag',
    story: 'a note update answers the note as it was before the write',
    caughtBy: ['etag'],
    only: ['notes'],
    versions: ['2025-06'],
    wrap: staleUpdate,
  },
  {
    name: 'delete does not delete',
    story: 'a label delete answers 204 and keeps the label',
    caughtBy: ['delete'],
    only: ['labels'],
    wrap: deleteKeeps,
  },
  {
    name: 'ignored filter',
    story: 'the notes list ignores ?pinned=',
    caughtBy: ['filters'],
    only: ['notes'],
    versions: ['2025-06'],
    wrap: ignoredFilter,
  },
  {
    name: 'missing unique check',
    story: 'labels have no unique index on name',
    caughtBy: ['unique'],
    only: ['labels'],
    wrap: noUniqueIndex('labels'),
  },
  {
    name: 'non-atomic conditional update',
    story: 'a note update checks If-Match, awaits, then writes',
    caughtBy: ['if-match-update'],
    only: ['notes'],
    versions: ['2025-01'],
    wrap: nonAtomicUpdate,
  },
  {
    name: 'idempotency ignored',
    story: 'a proxy drops the Idempotency-Key header in front of the notes API',
    caughtBy: ['idempotent-create'],
    only: ['notes'],
    versions: ['2025-06'],
    mount: dropIdempotencyKey,
  },
];
