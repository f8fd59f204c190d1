/**
 * What fails a report (issue #12, items 4, 5 and 6): fingerprints that never collide, deliberate breaks
 * accepted in the lock and honoured by both `check` (the lock) and `diff --base`, and severity overrides.
 */
import { describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { fingerprintOf } from '../../generator/diff/collector.ts';
import { diffHistory } from '../../generator/diff/diff-history.ts';
import { applySeverity, gateReport, reaches, unknownSeverityIds } from '../../generator/diff/gate.ts';
import { compareWithLock, parseLock, serializeLock } from '../../generator/lock/index.ts';
import { apiWith, diffEdit } from './helpers.ts';

const versions = { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} };
const api = (x: ReturnType<typeof f.string>, extra: Parameters<typeof apiWith>[1] = {}) => apiWith({ x }, { versions, ...extra });

describe('fingerprints never collide', () => {
  it('the same change to v1 (breaking) and to unreleased v2 in a --base report', () => {
    const shape = { versions: { v1: { released: '2026-01-01' }, v2: {} } };
    const report = diffHistory(apiWith({ x: f.string().max(10) }, shape), apiWith({ x: f.string().max(5) }, shape), { from: 'main', to: 'working tree' });
    const [v1, v2] = report.findings.filter((x) => x.id === 'request-bound-tightened');
    expect([v1!.version, v2!.version, v1!.id, v2!.id]).toEqual(['v1', 'v2', 'request-bound-tightened', 'request-bound-tightened']);
    expect(v1!.fingerprint).not.toBe(v2!.fingerprint);
  });
  it('"delete removed" and "update and delete removed"', () => {
    const all = { operations: ['list', 'get', 'create', 'update', 'delete'] as const };
    const before = apiWith({}, { collection: all });
    const noDelete = diffEdit(before, apiWith({}, { collection: { operations: ['list', 'get', 'create', 'update'] } }));
    const noUpdateOrDelete = diffEdit(before, apiWith({}, { collection: { operations: ['list', 'get', 'create'] } }));
    expect(noDelete[0]!.id).toBe('operation-removed');
    expect(noUpdateOrDelete[0]!.id).toBe('operation-removed');
    expect(noDelete[0]!.fingerprint).not.toBe(noUpdateOrDelete[0]!.fingerprint);
  });
  it('one bound changed and two bounds changed', () => {
    // Each also warns that stored data may not satisfy it (one finding of its own, with the same changes).
    const one = diffEdit(api(f.string().min(1).max(10)), api(f.string().min(1).max(5)));
    const two = diffEdit(api(f.string().min(1).max(10)), api(f.string().min(2).max(5)));
    expect([one.length, two.length, one[0]!.id, two[0]!.id, one[1]!.id]).toEqual([
      2,
      2,
      'request-bound-tightened',
      'request-bound-tightened',
      'existing-data-may-not-satisfy',
    ]);
    expect(two[0]!.changes).toEqual([
      { aspect: 'minLength', before: 1, after: 2 },
      { aspect: 'maxLength', before: 10, after: 5 },
    ]);
    expect(one[0]!.fingerprint).not.toBe(two[0]!.fingerprint);
  });
  it('the same bound changed to another value', () => {
    const to5 = diffEdit(api(f.string().max(10)), api(f.string().max(5)));
    const to4 = diffEdit(api(f.string().max(10)), api(f.string().max(4)));
    expect(to5[0]!.fingerprint).not.toBe(to4[0]!.fingerprint);
  });
  it('are stable: a hash of id, version, location and changes (order of changes does not matter)', () => {
    const [found] = diffEdit(api(f.string().max(10)), api(f.string().max(5)));
    expect(found!.fingerprint).toBe(fingerprintOf('request-bound-tightened', 'v1', 'items.x', [{ aspect: 'maxLength', before: 10, after: 5 }]));
    expect(found!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const a = { aspect: 'a', before: 1 };
    const b = { aspect: 'b', after: 2 };
    expect(fingerprintOf('x', 'v1', 'l', [a, b])).toBe(fingerprintOf('x', 'v1', 'l', [b, a]));
    expect(fingerprintOf('a', 'v1', 'b.c', [])).not.toBe(fingerprintOf('a.b', 'v1', 'c', []));
  });
});

describe('accepted breaks', () => {
  const locked = () => compareWithLock(api(f.string().max(100)), undefined).nextLock;
  it('--accept-breaking records each break with its fingerprint, the date and a reason; check then passes', () => {
    const edited = api(f.string().max(50));
    const result = compareWithLock(edited, locked(), { acceptBreaking: true, today: '2026-07-01', acceptReason: 'no client sends more than 50' });
    expect(result.diagnostics).toEqual([]);
    const accepted = result.nextLock.accepted!;
    expect(accepted.map((a) => [a.version, a.id, a.location, a.acceptedOn, a.reason])).toEqual([
      ['v1', 'request-bound-tightened', 'items.x', '2026-07-01', 'no client sends more than 50'],
      ['v2', 'request-bound-tightened', 'items.x', '2026-07-01', 'no client sends more than 50'],
    ]);
    expect(result.findings.filter((x) => x.level === 'breaking').every((x) => x.accepted)).toBe(true);
    const again = compareWithLock(edited, result.nextLock);
    expect(again).toMatchObject({ diagnostics: [], changed: false });
    expect(parseLock(serializeLock(result.nextLock))).toEqual({ ok: true, lock: result.nextLock });
  });
  it('diff --base honours the lock: the accepted break never fails, a different break still does', () => {
    const before = api(f.string().max(100));
    const edited = api(f.string().max(50));
    const { nextLock } = compareWithLock(edited, locked(), { acceptBreaking: true });
    const report = gateReport(diffHistory(before, edited, { from: 'main', to: 'working tree' }), { accepted: nextLock.accepted ?? [] });
    expect(report.findings.filter((x) => x.level === 'breaking').map((x) => [x.version, Boolean(x.accepted), Boolean(x.unreleased)])).toEqual([
      ['v1', true, false],
      ['v2', true, false],
      ['v3', false, true],
    ]);
    expect(reaches(report.findings, 'breaking')).toBe(false);
    // A further tightening is another change: its fingerprint is not accepted, so it fails.
    const further = gateReport(diffHistory(before, api(f.string().max(40)), { from: 'main', to: 'working tree' }), { accepted: nextLock.accepted ?? [] });
    expect(reaches(further.findings, 'breaking')).toBe(true);
  });
  it('check honours an accepted entry even where the contract was not updated (a lock merged from another branch)', () => {
    const edited = api(f.string().max(50));
    const { nextLock } = compareWithLock(edited, locked(), { acceptBreaking: true });
    const merged = { ...locked(), accepted: nextLock.accepted! };
    const result = compareWithLock(edited, merged);
    expect(result.diagnostics).toEqual([]);
    expect(result.nextLock.versions.v1).toEqual(nextLock.versions.v1);
    expect(compareWithLock(api(f.string().max(40)), merged).diagnostics.map((d) => d.code)).toEqual(['RG180']);
  });
  it('a malformed accepted list is a clear error', () => {
    const text = JSON.stringify({ lockfileVersion: 1, api: 'x', versions: {}, accepted: [{ fingerprint: 1 }] });
    const parsed = parseLock(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain('"accepted"');
  });
});

describe('severity overrides', () => {
  const found = () => diffEdit(apiWith({ x: f.string().optional() }, { versions }), apiWith({}, { versions }));
  it('an id, or a rule name covering both sides, gets another level; the rule level is kept', () => {
    const [byId] = applySeverity(found(), { 'request-optional-field-removed': 'warning' });
    expect(byId).toMatchObject({ id: 'request-optional-field-removed', level: 'warning', ruleLevel: 'breaking' });
    const [byRule] = applySeverity(found(), { 'optional-field-removed': 'safe' });
    expect(byRule).toMatchObject({ level: 'safe', ruleLevel: 'breaking' });
    expect(reaches([byRule!], 'breaking')).toBe(false);
  });
  it('off drops the finding; unknown ids are reported', () => {
    expect(applySeverity(found(), { 'optional-field-removed': 'off' })).toEqual([]);
    expect(unknownSeverityIds({ 'optional-field-removed': 'off', 'request-bound-tightened': 'warning', 'no-such-id': 'safe' })).toEqual(['no-such-id']);
  });
  it('the lock takes overrides too: a rule turned down to warning is no longer refused', () => {
    const lock = compareWithLock(api(f.string().max(100)), undefined).nextLock;
    expect(compareWithLock(api(f.string().max(50)), lock).diagnostics).toHaveLength(1);
    expect(compareWithLock(api(f.string().max(50)), lock, { severity: { 'bound-tightened': 'warning' } }).diagnostics).toEqual([]);
  });
});
