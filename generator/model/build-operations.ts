/**
 * @module Building a collection's operation lists (`operations`, `public`), its scope lists and rate limits
 * from what the user wrote, with the diagnostics for each entry. Used by `build.ts`.
 */
import type { OperationName } from '../dsl/defs.ts';
import { describeValue } from '../dsl/arguments.ts';
import type { FieldContext } from './build-field.ts';
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import { OPERATIONS, type OperationIR, type RateLimitIR, type SourceRef } from './ir.ts';
import { checkShape, closest, OPERATION_ENTRY } from './option-shapes.ts';
import { emptyRange } from './project.ts';

const WINDOW = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A rate limit after its shape was checked: the values themselves are still unchecked. */
export interface CheckedRateLimit {
  readonly limit?: unknown;
  readonly window?: unknown;
}

/** A rate limit as written (`{ limit, window: '1m' }`), checked (RG113); undefined when absent or wrong. */
export function rateLimitOf(def: CheckedRateLimit | undefined, where: string, d: DiagnosticBag, ref: SourceRef): RateLimitIR | undefined {
  if (!def) return undefined;
  const { limit, window } = def;
  const m = typeof window === 'string' ? WINDOW.exec(window) : null;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || !m || typeof window !== 'string') {
    d.error(
      'RG113',
      `${where}: rateLimit needs a whole limit of at least 1 and a window like '1s', '1m', '15m', '1h' or '1d' (got limit ${String(limit)}, window '${String(window)}').`,
      ref,
    );
    return undefined;
  }
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return { limit, window: window as RateLimitIR['window'], windowMs: ms };
}

/** A scope list as written: one scope, several, or none. */
export function scopeList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

/** What an operation list is: the operations offered, or those of them that are public. */
export type OperationList = 'operations' | 'public';

/** An `operations` or `public` entry: an operation name, or `{ name, addedIn, removedIn }` (checked against its shape). */
function operationEntry(
  entry: unknown,
  index: number,
  where: string,
  ctx: FieldContext,
  ref: SourceRef,
  list: OperationList,
): { name: unknown; addedIn?: unknown; removedIn?: unknown } | undefined {
  if (typeof entry === 'string') return { name: entry };
  if (typeof entry === 'object' && entry !== null && !Array.isArray(entry))
    return checkShape(entry, OPERATION_ENTRY, where, ref, ctx.diagnostics, [list, String(index)]) as { name: unknown } | undefined;
  ctx.diagnostics.error(
    'RG175',
    `${where}: ${list}[${index}] must be an operation name or { name, addedIn, removedIn } (got ${describeValue(entry)}).`,
    atPath(ref, [list, String(index)]),
  );
  return undefined;
}

/**
 * The operations written (in `operations`, or in `public`), and whether every entry was one (a misspelt entry is
 * reported here once; the rules that ask whether the collection offers an operation then stay quiet rather than
 * blame the entry's neighbours).
 */
export function operationsOf(
  written: readonly unknown[],
  where: string,
  ctx: FieldContext,
  ref: SourceRef,
  list: OperationList = 'operations',
): { ops: OperationIR[]; complete: boolean } {
  const ops: OperationIR[] = [];
  const before = ctx.diagnostics.errorCount;
  for (const [index, entry] of written.entries()) {
    const op = operationEntry(entry, index, where, ctx, ref, list);
    if (!op) continue;
    const oref = atPath(ref, [list]);
    const inList = list === 'public' ? ' in public' : '';
    const name = op.name;
    if (typeof name !== 'string' || !(OPERATIONS as readonly string[]).includes(name)) {
      const guess = typeof name === 'string' ? closest(name, OPERATIONS) : undefined;
      ctx.diagnostics.error(
        'RG115',
        `${where}: unknown operation '${String(name)}'${inList}${guess ? ` (did you mean '${guess}'?)` : ''}; the operations are ${OPERATIONS.join(', ')}.`,
        oref,
      );
      continue;
    }
    if (ops.some((o) => o.name === name)) {
      ctx.diagnostics.error('RG116', `${where}: operation '${name}' is listed twice${inList}; keep one.`, oref);
      continue;
    }
    const known = (v: unknown): v is string => typeof v === 'string' && ctx.versions.includes(v);
    for (const v of [op.addedIn, op.removedIn])
      if (v !== undefined && !known(v))
        ctx.diagnostics.error(
          'RG150',
          `${where}: operation '${name}'${inList} names unknown version '${String(v)}'; the API declares ${ctx.versions.join(', ')}.`,
          oref,
        );
    // An entry that holds in no version says nothing: a mistake in its versions.
    const empty = emptyRange(ctx.versions, known(op.addedIn) ? op.addedIn : undefined, known(op.removedIn) ? op.removedIn : undefined);
    if (empty) ctx.diagnostics.error(empty.code, `${where}: operation '${name}'${inList} ${empty.text}.`, oref);
    ops.push({
      kind: 'operation',
      name: name as OperationName,
      ...(known(op.addedIn) ? { addedIn: op.addedIn } : {}),
      ...(known(op.removedIn) ? { removedIn: op.removedIn } : {}),
    });
  }
  // Emit operations in one fixed order, whatever order the user listed them in.
  return { ops: ops.sort((a, b) => OPERATIONS.indexOf(a.name) - OPERATIONS.indexOf(b.name)), complete: ctx.diagnostics.errorCount === before };
}
