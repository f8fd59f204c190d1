/**
 * The lock: contracts are deterministic and location-free; a breaking edit to a released version is an
 * RG180 error at the changed builder; a safe edit updates the lock; --accept-breaking records a break;
 * the proper way (a marker in a new version) leaves released contracts untouched.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { compareWithLock, contractOf, lockPathFor, parseLock, readLockFile, serializeLock, writeLockFile } from '../../generator/lock/index.ts';
import { apiWith } from './helpers.ts';

const versions = { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} };
const api = (x: Parameters<typeof apiWith>[0]['x'], extra: Parameters<typeof apiWith>[0] = {}) => apiWith({ x: x!, ...extra }, { versions });
const locked = () => compareWithLock(api(f.string().max(100)), undefined).nextLock;

describe('contracts', () => {
  it('hold released versions only, without locations or documentation, deterministically', () => {
    const lock = locked();
    expect(Object.keys(lock.versions)).toEqual(['v1', 'v2']);
    const text = serializeLock(lock);
    expect(text).not.toContain('"loc"');
    expect(text).not.toContain('test-api.ts');
    expect(text.endsWith('}\n')).toBe(true);
    expect(serializeLock(compareWithLock(api(f.string().max(100).description('changed')), undefined).nextLock)).toBe(text);
    expect(contractOf(api(f.string().max(100)), 'v1').collections[0]!.fields.map((x) => x.name)).toEqual(['id', 'x']);
  });
  it('a first release enters the lock and is reported', () => {
    const result = compareWithLock(api(f.string().max(100)), undefined);
    expect(result.diagnostics).toEqual([]);
    expect(result.changed).toBe(true);
    expect(result.findings.map((x) => [x.id, x.location])).toEqual([
      ['version-released', 'v1'],
      ['version-released', 'v2'],
    ]);
  });
});

describe('compareWithLock', () => {
  it('a field renamed in a released version without a marker: both refusals name the rename marker as the likely fix', () => {
    const before = compareWithLock(apiWith({ qty: f.int().min(1) }, { versions }), undefined).nextLock;
    const result = compareWithLock(apiWith({ quantity: f.int().min(1) }, { versions }), before);
    const messages = result.diagnostics.filter((d) => d.message.startsWith('v1 ')).map((d) => d.message);
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(m).toContain("if this is a rename, write .renamedFrom('qty', 'v3') on quantity; otherwise");
    // An unrelated removal gets no rename hint.
    const unrelated = compareWithLock(apiWith({ active: f.boolean() }, { versions }), before);
    expect(unrelated.diagnostics.some((d) => d.message.includes('if this is a rename'))).toBe(false);
  });
  it('one RG180 per change, listing the released versions it breaks, with one way of naming a version yet to add', () => {
    const dated = { '2025-01-15': { released: '2025-01-15' }, '2025-06-01': { released: '2025-06-01' }, '2026-01-10': { released: '2026-01-10' } };
    const before = compareWithLock(apiWith({ qty: f.int().min(1), note: f.string().max(100) }, { versions: dated }), undefined).nextLock;
    // Three changes (qty renamed to quantity without a marker: a removal and an addition; note's maximum lowered),
    // each breaking all three released versions.
    const result = compareWithLock(apiWith({ quantity: f.int().min(1), note: f.string().max(50) }, { versions: dated }), before);
    const messages = result.diagnostics.map((d) => d.message);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['RG180', 'RG180', 'RG180']);
    for (const m of messages) {
      expect(m).toMatch(/^2025-01-15, 2025-06-01 and 2026-01-10 are released and frozen, but /);
      // No version can carry a marker yet: the message says to add one, once, and names it one way throughout.
      expect(m).toContain("make the change in a new version (add one after 2026-01-10 to versions first; '<new version>' below is its name): ");
      expect(m).not.toContain('a new version:');
      expect(m).not.toContain("'a new version'");
      expect(m).not.toMatch(/write add/);
      expect(m.match(/to versions first/g)).toHaveLength(1);
    }
    const removed = messages.find((m) => m.includes('items.qty was removed'))!;
    expect(removed).toContain(
      "if this is a rename, write .renamedFrom('qty', '<new version>') on quantity; otherwise remove it with .removedIn('<new version>', { fallback: ... })",
    );
    expect(messages.find((m) => m.includes('items.note'))).toContain(".typeChangedFrom('<new version>', f.…) on note");
  });
  it('a proposed vN is named as the version to add first', () => {
    const two = { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' } };
    const before = compareWithLock(apiWith({ note: f.string().max(100) }, { versions: two }), undefined).nextLock;
    const [d, ...rest] = compareWithLock(apiWith({ note: f.string().max(50) }, { versions: two }), before).diagnostics;
    expect(rest).toEqual([]);
    expect(d!.message).toMatch(
      /^v1 and v2 are released and frozen, but items\.note: max length 100 → 50 \(request-bound-tightened, breaking\); make the change in a new version \(add 'v3' to versions first\): describe the old field with \.typeChangedFrom\('v3', f\.…\) on note;/,
    );
  });
  it('an unchanged API leaves the lock as it is', () => {
    const result = compareWithLock(api(f.string().max(100)), locked());
    expect(result).toMatchObject({ diagnostics: [], findings: [], changed: false });
  });
  it('a breaking edit to a released version is RG180 at the changed builder, naming the marker; the lock keeps the old contract', () => {
    const edited = api(f.string().max(50));
    const result = compareWithLock(edited, locked());
    // One error for the change, naming both versions it breaks.
    expect(result.diagnostics.map((d) => d.code)).toEqual(['RG180']);
    const [d] = result.diagnostics;
    const field = edited.collections[0]!.fields.find((x) => x.name === 'x')!;
    expect(d!.severity).toBe('error');
    // The edited modifier's own call (`.max(50)`), not the field's first builder call.
    expect(d!.loc).toEqual(field.calls['max']);
    expect(d!.loc!.member).toBe('max');
    expect(d!.loc!.file).toMatch(/lock\.test\.ts$/);
    expect(d!.message).toContain('v1 and v2 are released and frozen');
    expect(d!.message).toContain('request-bound-tightened');
    expect(d!.message).toContain(".typeChangedFrom('v3'");
    expect(result.nextLock.versions.v1).toEqual(locked().versions.v1);
  });
  it('a required field added to a released version names addedIn in the next version', () => {
    const result = compareWithLock(api(f.string().max(100), { y: f.int() }), locked());
    expect(result.diagnostics[0]!.message).toContain(".addedIn('v3')");
  });
  it('a safe edit updates the lock and is reported', () => {
    const edited = api(f.string().max(100), { note: f.string().optional() });
    const result = compareWithLock(edited, locked());
    expect(result.diagnostics).toEqual([]);
    expect(result.changed).toBe(true);
    expect(result.findings.map((x) => [x.id, x.level, x.version, x.location])).toEqual([
      ['optional-field-added', 'safe', 'v1', 'items.note'],
      ['optional-field-added', 'safe', 'v2', 'items.note'],
    ]);
    expect(result.nextLock.versions.v1).toEqual(contractOf(edited, 'v1'));
  });
  it('loosening a bound of a read-write field is breaking (responses), so it is refused too', () => {
    expect(compareWithLock(api(f.string().max(200)), locked()).diagnostics[0]!.message).toContain('response-bound-loosened');
  });
  it('acceptBreaking records a deliberate break', () => {
    const edited = api(f.string().max(50));
    const result = compareWithLock(edited, locked(), { acceptBreaking: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.findings.filter((x) => x.level === 'breaking').map((x) => x.version)).toEqual(['v1', 'v2']);
    expect(result.nextLock.versions.v1).toEqual(contractOf(edited, 'v1'));
  });
  it('the proper way, a marker in the unreleased version, leaves the released contracts alone', () => {
    const proper = api(f.string().max(50).typeChangedFrom('v3', f.string().max(100)));
    const result = compareWithLock(proper, locked());
    expect(result).toMatchObject({ diagnostics: [], findings: [], changed: false });
  });
  it('a released version removed before its sunset is RG180; after its sunset it leaves the lock', () => {
    const dated = apiWith(
      { x: f.string() },
      { versions: { v1: { released: '2026-01-01', deprecated: '2026-03-01', sunset: '2026-06-01' }, v2: { released: '2026-03-01' } } },
    );
    const lock = compareWithLock(dated, undefined).nextLock;
    const without = apiWith({ x: f.string() }, { versions: { v2: { released: '2026-03-01' } } });
    expect(compareWithLock(without, lock, { today: '2026-05-31' }).diagnostics.map((d) => d.code)).toEqual(['RG180']);
    const after = compareWithLock(without, lock, { today: '2026-06-01' });
    expect(after.diagnostics).toEqual([]);
    expect(Object.keys(after.nextLock.versions)).toEqual(['v2']);
  });
  it('--accept-breaking after removing a released version leaves no accepted entry of it: entries stay while their version is in the lock', () => {
    const both = { v1: { released: '2026-01-01', deprecated: '2026-03-01', sunset: '2026-06-01' }, v2: { released: '2026-03-01' } };
    const lock = compareWithLock(apiWith({ x: f.string().max(100) }, { versions: both }), undefined).nextLock;
    // A break accepted earlier in both versions.
    const tightened = compareWithLock(apiWith({ x: f.string().max(50) }, { versions: both }), lock, { acceptBreaking: true, today: '2026-04-01' }).nextLock;
    expect(tightened.accepted?.map((a) => a.version)).toEqual(['v1', 'v2']);
    // v1 removed before its sunset, accepted deliberately.
    const removed = compareWithLock(apiWith({ x: f.string().max(50) }, { versions: { v2: both.v2 } }), tightened, {
      acceptBreaking: true,
      today: '2026-04-02',
    });
    expect(removed.diagnostics).toEqual([]);
    expect(removed.findings.map((x) => [x.id, x.version, Boolean(x.accepted)])).toEqual([['version-removed', 'v1', true]]);
    expect(Object.keys(removed.nextLock.versions)).toEqual(['v2']);
    expect(removed.nextLock.accepted?.map((a) => [a.version, a.id])).toEqual([['v2', 'request-bound-tightened']]);
    // And once it is the lock, nothing is left to judge.
    expect(compareWithLock(apiWith({ x: f.string().max(50) }, { versions: { v2: both.v2 } }), removed.nextLock)).toMatchObject({
      diagnostics: [],
      changed: false,
    });
  });
});

describe('lock file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('lives beside the API module', () => {
    expect(lockPathFor('/a/b/api.ts')).toBe('/a/b/restgen.lock.json');
  });
  it('is written atomically with sorted keys and a trailing newline, and read back', () => {
    const file = path.join(dir, 'restgen.lock.json');
    expect(readLockFile(file)).toEqual({ ok: true, lock: undefined });
    const lock = locked();
    expect(writeLockFile(file, lock)).toBe(true);
    expect(writeLockFile(file, lock)).toBe(false);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const keys = Object.keys(JSON.parse(text) as object);
    expect(keys).toEqual([...keys].sort());
    const read = readLockFile(file);
    expect(read.ok && serializeLock(read.lock!)).toBe(text);
  });
  it('keeps a symbolic link a link and leaves no temporary file, as every generated file', () => {
    const shared = path.join(dir, 'shared');
    mkdirSync(shared);
    writeFileSync(path.join(shared, 'restgen.lock.json'), '{}\n');
    const file = path.join(dir, 'linked.lock.json');
    symlinkSync(path.join(shared, 'restgen.lock.json'), file);
    expect(writeLockFile(file, locked())).toBe(true);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(shared, 'restgen.lock.json'), 'utf8')).toBe(serializeLock(locked()));
    expect(readdirSync(shared)).toEqual(['restgen.lock.json']);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
  it('a malformed lock is an error message, not an exception', () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, '{ nope');
    const read = readLockFile(file);
    expect(read.ok).toBe(false);
    expect(parseLock('{"lockfileVersion":2}').ok).toBe(false);
  });
});
