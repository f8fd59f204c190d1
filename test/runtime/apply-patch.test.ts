/**
 * `applyPatch` merges a PATCH body over a stored resource as the in-memory store's update does: members sent
 * replace the stored ones (a nested object as a whole, null included), members left out or undefined are kept,
 * and the stored resource itself is not changed.
 */
import { describe, expect, it } from 'vitest';
import { applyPatch } from '@restgen/runtime';

interface Ticket {
  id: string;
  title: string;
  note: string | null;
  assignee?: { name: string; team: string };
  tags: string[];
}

const stored: Ticket = { id: 't1', title: 'Printer jam', note: 'on floor 2', assignee: { name: 'Ada', team: 'ops' }, tags: ['hw'] };

describe('applyPatch', () => {
  it('replaces the members the patch sends and keeps the others', () => {
    expect(applyPatch(stored, { title: 'Printer fixed', tags: [] })).toEqual({ ...stored, title: 'Printer fixed', tags: [] });
  });

  it('keeps a member the patch sends as undefined (zod leaves absent members out, a handler may not)', () => {
    expect(applyPatch(stored, { title: undefined, note: undefined })).toEqual(stored);
  });

  it('sets null where the patch sends null, and replaces a nested object whole', () => {
    const next = applyPatch(stored, { note: null, assignee: { name: 'Grace', team: 'dev' } });
    expect(next.note).toBeNull();
    expect(next.assignee).toEqual({ name: 'Grace', team: 'dev' });
  });

  it('returns a new object and leaves the stored one as it was', () => {
    const before = structuredClone(stored);
    const next = applyPatch(stored, { title: 'x' });
    expect(next).not.toBe(stored);
    expect(stored).toEqual(before);
  });
});
