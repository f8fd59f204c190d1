/**
 * The generated servers compile under strict settings (module nodenext, noUnusedLocals, exact optional
 * properties), and their types hold users to the contract: handlers typed with the newest version,
 * migration hooks and credentials required, an ioredis client accepted. Checked with `tsc --noEmit`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { HEADER_API, writableOutput } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;

const TSC = new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url).pathname;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022'],
    types: ['node'],
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    skipLibCheck: true,
    noEmit: true,
  },
};

/** The strictest settings a project commonly adds on top (import and export forms kept exactly as written). */
const STRICTEST = {
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
};

/** Type-checks `dir` with its usage file; returns tsc's output (empty when clean). */
async function typecheck(dir: string, usage: string, stricter: object = {}): Promise<string> {
  writeFileSync(path.join(dir, 'usage.ts'), usage);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...TSCONFIG.compilerOptions, ...stricter }, include: ['**/*.ts'] }));
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

const SHOP_USAGE = `
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { Conflict, InvalidTransition, NotFound, PreconditionFailed, createDiskFileStore, createMemoryHandlers, registerShopApi, type ShopHandlers, type ShopMigrations } from './server/index.js';

const app = Fastify();
const migrations: ShopMigrations = {
  v2: { orders: { note: { value: (order) => order.giftMessage } } },
  v3: {
    customers: { name: { whenMissing: (customer) => customer.email } },
    orders: { reference: { up: (n) => 'RF-' + String(n).padStart(4, '0'), down: (s) => Number(s.slice(3)) } },
  },
};
const authenticate = () => ({ id: 'u', scopes: ['orders:read'] });
const files = createDiskFileStore('invoices');
await registerShopApi(app, createMemoryHandlers(), { authenticate, migrations, files });
await registerShopApi(app, createMemoryHandlers(), { apiKeys: { k: { id: 'svc', scopes: [] } }, migrations, redis: new Redis({ lazyConnect: true }), files });
// @ts-expect-error the migration hooks are required
await registerShopApi(app, createMemoryHandlers(), { authenticate, files });
// @ts-expect-error every hook is required
await registerShopApi(app, createMemoryHandlers(), { authenticate, migrations: { ...migrations, v2: { orders: {} } }, files });
// @ts-expect-error a store for the invoices' files is required
await registerShopApi(app, createMemoryHandlers(), { authenticate, migrations });
// @ts-expect-error a hook converts to the old type (v2 reference is an integer)
const wrong: ShopMigrations = { ...migrations, v3: { ...migrations.v3, orders: { reference: { up: (n) => String(n), down: (s) => s } } } };
// @ts-expect-error some way to authenticate is required
await registerShopApi(app, createMemoryHandlers(), { migrations, files });
// @ts-expect-error pinnedVersion applies to header versioning only (the shop's versions are paths)
await registerShopApi(app, createMemoryHandlers(), { authenticate, migrations, pinnedVersion: () => 'v1', files });

// Handlers are typed with v3: quantity (not qty), a string reference; NotFound and Conflict are answers.
const orders: ShopHandlers['orders'] = {
  ...createMemoryHandlers().orders,
  create: (body) => {
    const quantity: number = body.quantity;
    const reference: string | undefined = body.reference;
    // @ts-expect-error qty is the v1 name
    void body.qty;
    if (quantity > 100) return new Conflict('too many', 'quantity');
    return {
      id: 'x',
      customer_id: body.customer_id,
      product_id: body.product_id,
      quantity,
      currency: body.currency,
      total: body.total,
      status: 'open',
      createdAt: '',
      ...(reference ? { reference } : {}),
    };
  },
  get: () => new NotFound(),
  // The list query arrives parsed and typed: filters by field and operator, the sort ending with the id.
  list: (query) => {
    const statuses: readonly ('open' | 'paid' | 'shipped' | 'cancelled' | 'refunded')[] | undefined = query.filter.status?.in;
    const least: number | undefined = query.filter.total?.gte;
    const order: 'createdAt' | 'total' | 'id' | undefined = query.sort[0]?.field;
    const expand: readonly 'customer_id'[] = query.expand;
    // @ts-expect-error status takes eq and in, not ne
    void query.filter.status?.ne;
    // @ts-expect-error quantity is not filterable
    void query.filter.quantity;
    void [statuses, least, order, expand];
    return { data: [], next_cursor: null };
  },
};
// @ts-expect-error orders declare no replace operation
void orders.replace;
// @ts-expect-error a handler must return the resource (or a problem)
const badGet: ShopHandlers['orders']['get'] = () => ({ id: 1 });
void wrong;
void badGet;

// Transitions: the order arrives in one of the from states, and is answered in the to state.
const moves: ShopHandlers['orders'] = {
  ...createMemoryHandlers().orders,
  pay: (order) => {
    const from: 'open' = order.status;
    void from;
    return { ...order, status: 'paid' };
  },
  cancel: (order, input, ctx) => {
    const reason: string | undefined = input.reason;
    void reason;
    if (ctx.condition && !ctx.condition.matches(order)) return new PreconditionFailed();
    return order.status === 'paid' ? new InvalidTransition(order.status) : { ...order, status: 'cancelled' };
  },
  ship: (order, input) => ({ ...order, status: 'shipped', reference: input.carrier }),
};
// @ts-expect-error pay answers the order in its to state (paid), not another
const badPay: ShopHandlers['orders']['pay'] = (order) => ({ ...order, status: 'shipped' });
// @ts-expect-error ship's order is paid, never open
const badShip: ShopHandlers['orders']['ship'] = (order) => (order.status === 'open' ? order : { ...order, status: 'shipped' });
// @ts-expect-error ship needs a carrier in its input type
const badInput: ShopHandlers['orders']['ship'] = (order, input) => ({ ...order, status: 'shipped', reference: input.tracking });
// @ts-expect-error every transition needs a handler
const noRefund: ShopHandlers['orders'] = { ...moves, refund: undefined };
void badPay;
void badShip;
void badInput;
void noRefund;
`;

// Real update and replace handlers over a store of the newest resources, under exactOptionalPropertyTypes.
const PATCH_USAGE = `
import { NotFound, PreconditionFailed, applyPatch, createMemoryHandlers, type ShopHandlers } from './server/index.js';
import type { Resource as Customer } from './server/collections/customers.js';

const db = new Map<string, Customer>();
export const customers: ShopHandlers['customers'] = {
  ...createMemoryHandlers().customers,
  update: (id, patch, ctx) => {
    const stored = db.get(id);
    if (!stored) return new NotFound();
    if (ctx.condition && !ctx.condition.matches(stored)) return new PreconditionFailed();
    // The write-only password is hashed, never stored as sent.
    const { password, ...changes } = patch;
    void password;
    const next: Customer = applyPatch(stored, changes);
    db.set(id, next);
    return next;
  },
  replace: (id, body) => {
    const stored = db.get(id);
    if (!stored) return new NotFound();
    const { password, ...fields } = body;
    void password;
    // Read-only fields keep their stored values.
    const next: Customer = { ...fields, id: stored.id, createdAt: stored.createdAt };
    db.set(id, next);
    return next;
  },
};

declare const stored: Customer;
declare const patch: Parameters<ShopHandlers['customers']['update']>[1];
// @ts-expect-error the spread types every patched member as possibly undefined, which a Customer does not allow here
export const spread: Customer = { ...stored, ...patch };
// @ts-expect-error a patch member of the wrong type is refused
applyPatch(stored, { tier: 'gold' });
// @ts-expect-error null only where the field is nullable
applyPatch(stored, { email: null });
`;

const NOTES_USAGE = `
import Fastify from 'fastify';
import { createMemoryHandlers, registerNotesApi, type NotesHandlers } from './server/index.js';

// No auth and nothing to migrate by hand: options may be left out.
await registerNotesApi(Fastify(), createMemoryHandlers());
const handlers: NotesHandlers = createMemoryHandlers({ labels: [{ id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', name: 'a' }] });
void handlers.notes.replace;
`;

const LEDGER_USAGE = `
import Fastify from 'fastify';
import type { VersionUse } from '@restgen/runtime';
import { createVersionMetrics } from '@restgen/runtime/otel';
import { createMemoryHandlers, registerLedgerApi } from './server/index.js';

const pins: Record<string, string> = { 'acct-1': '2025-01-15' };
const uses: VersionUse[] = [];
await registerLedgerApi(Fastify(), createMemoryHandlers(), {
  apiKeys: { k: { id: 'acct-1', scopes: ['ledger:read'] } },
  pinnedVersion: async (principal) => (principal ? pins[principal.id] : null),
  onVersionUse: (use) => {
    uses.push(use);
  },
});
await registerLedgerApi(Fastify(), createMemoryHandlers(), { apiKeys: {}, onVersionUse: createVersionMetrics({ principal: false }) });
// @ts-expect-error pinnedVersion answers a version (or null), not a number
await registerLedgerApi(Fastify(), createMemoryHandlers(), { apiKeys: {}, pinnedVersion: () => 2025 });
const source: 'header' | 'pinned' | 'default' | 'path' = uses[0]!.source;
void source;
`;

describe('generated servers type-check', () => {
  it('shop: strict, nodenext, and the types enforce hooks, credentials and newest-version handlers', async () => {
    const output = await typecheck(await writableOutput('typecheck-shop'), SHOP_USAGE);
    expect(output).toBe('');
  }, 60_000);

  it('applyPatch types a PATCH merged over the stored resource as the resource, under the strictest settings', async () => {
    const output = await typecheck(await writableOutput('typecheck-patch'), PATCH_USAGE, STRICTEST);
    expect(output).toBe('');
  }, 60_000);

  it('header-versioning example: no auth, no hooks, options optional', async () => {
    const output = await typecheck(await writableOutput('typecheck-notes', HEADER_API), NOTES_USAGE);
    expect(output).toBe('');
  }, 60_000);

  it('ledger example: pinnedVersion, onVersionUse and the OpenTelemetry adapter', async () => {
    const output = await typecheck(await writableOutput('typecheck-ledger', LEDGER_API), LEDGER_USAGE);
    expect(output).toBe('');
  }, 60_000);

  it('a type error in usage is reported (the check can fail)', async () => {
    const output = await typecheck(await writableOutput('typecheck-notes', HEADER_API), `${NOTES_USAGE}\nconst n: number = 'x';\nvoid n;\n`);
    expect(output).toContain('TS2322');
  }, 60_000);

  it('a version module holds the schemas of the operations it offers, and the newest those handlers take', async () => {
    const tmp = tempDir('typecheck-ops');
    try {
      writeFiles(tmp.dir, {
        'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'ops',
  versions: { v1: {}, v2: {} },
  collections: {
    readings: collection({ fields: { id: f.id(), value: f.number().filterable() }, operations: ['list', 'get'] }),
    archives: collection({ fields: { id: f.id(), label: f.string() }, operations: ['get', 'replace'] }),
    drafts: collection({ fields: { id: f.id(), text: f.string() }, operations: ['get', 'create', { name: 'replace', removedIn: 'v2' }] }),
  },
});
`,
      });
      const outDir = path.join(tmp.dir, 'generated');
      const result = await generate({ apiPath: path.join(tmp.dir, 'api.ts'), outDir });
      expect(result.diagnostics).toEqual([]);
      const read = (file: string) => readFileSync(path.join(outDir, file), 'utf8');
      // Only reads: no body schema, no request-side field map.
      expect(read('v1/readings.ts')).not.toMatch(/Create|Replace|Patch|readingWrite/);
      expect(read('v1/readings.ts')).toContain('ReadingListQuery');
      // Replace without create: a body of its own; no list query.
      expect(read('v1/archives.ts')).toMatch(/export const ArchiveReplace = z\.strictObject/);
      expect(read('v1/archives.ts')).not.toMatch(/ArchiveCreate|ArchivePatch|ArchiveListQuery/);
      // Replace only in v1: v1 offers it; v2 does not, but its handler takes v2's shape, so v2 holds the schema.
      expect(read('v1/drafts.ts')).toContain('export const DraftReplace = DraftCreate;');
      expect(read('v2/drafts.ts')).toContain('export const DraftReplace = DraftCreate;');
      expect(
        await typecheck(
          outDir,
          `import { createMemoryHandlers, registerOpsApi } from './server/index.js';\nvoid registerOpsApi;\nvoid createMemoryHandlers;\n`,
        ),
      ).toBe('');
    } finally {
      tmp.cleanup();
    }
  }, 60_000);
});
