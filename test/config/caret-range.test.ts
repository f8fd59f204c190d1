/**
 * The caret check `generate` runs on the installed runtime, differentially against npm's own semver library: the
 * same verdict for every version against every range, pre-releases and build metadata included.
 */
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { satisfiesCaret } from '../../generator/config/caret-range.ts';

const RANGES = ['^0.0.3', '^0.1.0', '^0.2.5', '^1.0.0', '^1.2.3', '^2.0.0-beta.2'];
const VERSIONS = [
  '0.0.2',
  '0.0.3',
  '0.0.4',
  '0.1.0',
  '0.1.9',
  '0.2.0',
  '0.2.4',
  '0.2.5',
  '0.2.6',
  '0.3.0',
  '1.0.0',
  '1.2.2',
  '1.2.3',
  '1.9.9',
  '2.0.0',
  '0.1.0-alpha',
  '0.1.1-rc.1',
  '1.2.3-beta',
  '1.2.4-beta',
  '2.0.0-beta.1',
  '2.0.0-beta.2',
  '2.0.0-beta.10',
  '2.0.0-rc',
  '2.0.0',
  '2.1.0',
  '1.2.3+build.5',
  'v1.2.3',
  '01.2.3',
  '1.2',
  'latest',
  '',
];

describe('satisfiesCaret', () => {
  it.each(RANGES)('agrees with semver.satisfies on every version for %s', (range) => {
    for (const version of VERSIONS) expect(satisfiesCaret(version, range), `${version} ${range}`).toBe(semver.satisfies(version, range));
  });

  it('refuses a range that is not a caret range', () => {
    expect(satisfiesCaret('1.2.3', '>=1.0.0')).toBe(false);
  });
});
