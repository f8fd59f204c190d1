/**
 * The lock's cheap comparison: a released version is compared with its locked contract by a deep comparison
 * that builds nothing (instead of sorting and serialising both), and an untouched lock is recognised without
 * serialising it. It agrees with comparing the serialised texts; a lock in any key order still reads, and a
 * genuinely changed released version is still reported exactly as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { compareWithLock, parseLock, sameJson, serializeLock, type LockFile } from '../../generator/lock/index.ts';
import { apiWith } from './helpers.ts';

const versions = { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} };
const api = (x: Parameters<typeof apiWith>[0]['x']) => apiWith({ x: x! }, { versions });

/** The lock as `generate` would write it and the next run read it back. */
function writtenLock(): LockFile {
  const parsed = parseLock(serializeLock(compareWithLock(api(f.string().max(100)), undefined).nextLock));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.lock;
}

/** `value` with every object's keys in reverse order (as a hand edit or a merge tool might leave them). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((k) => [k, reversed((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** The lock text of `value` as one version's contract (the comparison the lock made before). */
const lockText = (value: unknown): string => serializeLock({ lockfileVersion: 1, api: '', versions: { v: value as never } });

describe('sameJson', () => {
  it('agrees with comparing lock texts, for equal data in other key orders and for different data', () => {
    const data = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(Number.NaN));
    const shaped = fc.tuple(data, data).map(([x, y]) => ({ b: x, a: [x, y], c: y, nested: { z: 1, y: [y, { x }] } }));
    fc.assert(
      fc.property(shaped, shaped, (one, other) => {
        expect(sameJson(one, reversed(one))).toBe(true);
        expect(sameJson(one, other)).toBe(lockText(one) === lockText(other));
      }),
      { numRuns: 300 },
    );
  });
});

describe('compareWithLock on a lock read from disk', () => {
  it('keeps every locked contract as read, unchanged, when nothing changed', () => {
    const lock = writtenLock();
    const result = compareWithLock(api(f.string().max(100)), lock);
    expect(result).toMatchObject({ diagnostics: [], findings: [], changed: false });
    expect(result.nextLock.versions['v1']).toBe(lock.versions['v1']);
    expect(result.nextLock.versions['v2']).toBe(lock.versions['v2']);
  });

  it('reads a lock whose keys are in another order as the same lock', () => {
    const lock = reversed(writtenLock()) as LockFile;
    const result = compareWithLock(api(f.string().max(100)), lock);
    expect(result).toMatchObject({ diagnostics: [], findings: [], changed: false });
  });

  it('still refuses a breaking change to a released version, with the same diagnostics as a lock in any order', () => {
    const edited = api(f.string().max(50));
    const fast = compareWithLock(edited, writtenLock());
    const slow = compareWithLock(edited, reversed(writtenLock()) as LockFile);
    expect(fast.diagnostics.map((d) => d.code)).toEqual(['RG180']);
    expect(fast.diagnostics.map((d) => d.message)).toEqual(slow.diagnostics.map((d) => d.message));
    expect(fast.diagnostics[0]!.message).toContain('v1 and v2 are released and frozen');
  });

  it('still records a safe change to a released version and reports the lock as changed', () => {
    const result = compareWithLock(api(f.string().max(100).filterable()), writtenLock());
    expect(result.diagnostics).toEqual([]);
    expect(result.changed).toBe(true);
    expect(result.findings.map((x) => [x.version, x.location])).toEqual([
      ['v1', 'items.x'],
      ['v2', 'items.x'],
    ]);
    expect(serializeLock(result.nextLock)).toContain('"filterable": true');
  });
});
