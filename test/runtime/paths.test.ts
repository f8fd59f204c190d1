/** `packages/runtime/src/paths.ts` as source: the `Vary` value header versioning sends. */
import { describe, expect, it } from 'vitest';
import { withVary } from '../../packages/runtime/src/paths.ts';

describe('withVary', () => {
  it('lists the version header after what the answer already varies on, once, whatever the case', () => {
    expect(withVary(undefined, 'Api-Version')).toBe('Api-Version');
    expect(withVary('Origin', 'Api-Version')).toBe('Origin, Api-Version');
    expect(withVary(['Origin', 'Accept-Encoding'], 'Api-Version')).toBe('Origin, Accept-Encoding, Api-Version');
    expect(withVary('origin, api-version', 'Api-Version')).toBe('origin, api-version');
    expect(withVary('*', 'Api-Version')).toBe('*');
  });
});
