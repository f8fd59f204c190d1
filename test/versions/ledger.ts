/**
 * @module The ledger example (date versions, header versioning with `default: 'latest'`, a deprecated
 * version with a sunset, a brownout window and a docs page) generated into `test/.tmp`, started on loopback
 * with principals pinned to versions, an injected clock, and every `onVersionUse` call recorded.
 */
import { generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';

/** The ledger example's API module. */
export const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;

/** Every scope the ledger's operations and webhook endpoints need. */
export const LEDGER_SCOPES = ['ledger:read', 'ledger:write', 'webhooks:read', 'webhooks:write'];

/**
 * API keys: `key-old` is pinned to 2025-01-15, `key-dated` to a date (2025-05-20, which resolves to
 * 2025-01-15), `key-new` to nothing (the default applies), `key-reader` has read scopes only.
 */
export const KEYS = {
  'key-old': { id: 'acct-old', scopes: LEDGER_SCOPES },
  'key-dated': { id: 'acct-dated', scopes: LEDGER_SCOPES },
  'key-new': { id: 'acct-new', scopes: LEDGER_SCOPES },
  'key-reader': { id: 'acct-reader', scopes: ['ledger:read'] },
} as const;

/** What `pinnedVersion` answers per principal id. */
export const PINS: Readonly<Record<string, string | null>> = { 'acct-old': '2025-01-15', 'acct-dated': '2025-05-20', 'acct-new': null, 'acct-reader': null };

/** 2026-03-01T12:00:00Z: 2025-01-15 is deprecated, outside its brownout, before its sunset. */
export const ORDINARY_DAY = Date.UTC(2026, 2, 1, 12);

/** A started ledger server and what it recorded. */
export interface Ledger {
  readonly server: Running;
  readonly mod: ServerModule;
  /** Every `onVersionUse` call, in order. */
  readonly uses: unknown[];
  /** Every `pinnedVersion` call: the principal's id (null when anonymous). */
  readonly pinCalls: (string | null)[];
  /** Sets the server's clock (ms since the epoch). */
  setNow(ms: number): void;
}

/** Generates the ledger example into `test/.tmp/server-<name>` and starts it with `options` added. */
export async function startLedger(name: string, options: Record<string, unknown> = {}): Promise<Ledger> {
  const mod = await importServer(await generateInto(name, LEDGER_API));
  const uses: unknown[] = [];
  const pinCalls: (string | null)[] = [];
  let now = ORDINARY_DAY;
  const server = await start((app) =>
    registerOf(mod, 'Ledger')(app, mod.createMemoryHandlers(), {
      apiKeys: KEYS,
      rateLimit: false,
      now: () => new Date(now),
      pinnedVersion: async (principal: { id: string } | null) => {
        pinCalls.push(principal?.id ?? null);
        return principal === null ? null : (PINS[principal.id] ?? null);
      },
      onVersionUse: (use: unknown) => void uses.push(use),
      ...options,
    }),
  );
  return { server, mod, uses, pinCalls, setNow: (ms) => (now = ms) };
}
