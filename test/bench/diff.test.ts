/**
 * The bench entry point of the diff works on the 200-collection synthetic API: it finds the rename and the
 * addition in each collection and reports a median time. How fast the diff is, `npm run bench` says (on the
 * docs' performance page); a test asserts no duration.
 */
import { describe, expect, it } from 'vitest';
import { benchDiff, createSyntheticApi } from '../../bench/diff.ts';

describe('benchDiff', () => {
  it('diffs two versions of 200 collections, finding the rename and the addition in each', () => {
    const api = createSyntheticApi(200);
    const result = benchDiff({ api, runs: 3 });
    expect(result.name).toBe('diff v1 → v2 (200 collections)');
    expect(result.findings).toBe(400);
    expect(Number.isFinite(result.medianMs)).toBe(true);
  });
});
