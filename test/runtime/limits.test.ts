/**
 * Small runtime modules as source: the per-address limit on rejected credentials, the version a 410
 * recommends, the challenges of WWW-Authenticate, and the client's reading of Retry-After and backoff.
 */
import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryDelay } from '../../runtime/client/retry.ts';
import { ApiError, ConflictError } from '../../runtime/client/failures.ts';
import { createFailureLimiter } from '../../packages/runtime/src/auth-failures.ts';
import { createChallenge } from '../../packages/runtime/src/auth.ts';
import { successorOf } from '../../packages/runtime/src/gate.ts';
import type { MountedSpec } from '../../packages/runtime/src/spec.ts';

describe('createFailureLimiter', () => {
  it('blocks an address after max rejected credentials until its window ends; other addresses are apart', () => {
    let now = 0;
    const limiter = createFailureLimiter(3, 10_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.blocked('a')).toBeNull();
      limiter.failed('a');
    }
    expect(limiter.blocked('a')).toBe(10);
    expect(limiter.blocked('b')).toBeNull();
    now = 9_001;
    expect(limiter.blocked('a')).toBe(1);
    now = 10_000;
    expect(limiter.blocked('a')).toBeNull();
  });

  it('admits at most max minus the rejections so far at once; the others wait, then are admitted or refused', async () => {
    const limiter = createFailureLimiter(2, 10_000, () => 0);
    expect(limiter.admit('a')).toBeNull();
    expect(await limiter.admit('a')).toBeNull();
    const third = limiter.admit('a');
    const fourth = limiter.admit('a');
    let settled = 0;
    void Promise.resolve(third).then(() => settled++);
    void Promise.resolve(fourth).then(() => settled++);
    await new Promise((r) => setTimeout(r, 5));
    expect(settled).toBe(0);
    // The first check was rejected: one place left, which the running second one holds; nobody is admitted.
    limiter.failed('a');
    limiter.release('a');
    await new Promise((r) => setTimeout(r, 5));
    expect(settled).toBe(0);
    // The second was rejected too: the address is over the limit, and every waiting check is refused.
    limiter.failed('a');
    limiter.release('a');
    expect(await third).toBe(10);
    expect(await fourth).toBe(10);
    // Another address is apart; valid checks free their places.
    expect(limiter.admit('b')).toBeNull();
    expect(await limiter.admit('b')).toBeNull();
    limiter.release('b');
    limiter.release('b');
    expect(limiter.admit('b')).toBeNull();
  });

  it('with max 0, checks still run one at a time instead of waiting forever', async () => {
    const limiter = createFailureLimiter(0, 10_000, () => 0);
    expect(limiter.admit('a')).toBeNull();
    const second = limiter.admit('a');
    limiter.release('a');
    expect(await second).toBeNull();
  });

  it('wakes a waiting check when a running one succeeds', async () => {
    const limiter = createFailureLimiter(1, 10_000, () => 0);
    expect(limiter.admit('a')).toBeNull();
    const waiting = limiter.admit('a');
    limiter.release('a');
    expect(await waiting).toBeNull();
    limiter.release('a');
    expect(limiter.admit('a')).toBeNull();
  });

  it('keeps at most maxAddresses windows', () => {
    const limiter = createFailureLimiter(1, 60_000, () => 0, 10);
    for (let i = 0; i < 20; i++) limiter.failed(`ip${i}`);
    expect(limiter.blocked('ip0')).toBeNull();
    expect(limiter.blocked('ip19')).toBe(60);
  });
});

describe('successorOf (the version a 410 names)', () => {
  const v = (name: string, released: boolean, sunsetAt: number | null = null) => ({ name, released, sunsetAt });
  it('is the newest released version that is not past its own sunset, never an unreleased one', () => {
    const spec = { versions: [v('v1', true, 100), v('v2', true), v('v3', false)] } as unknown as MountedSpec;
    expect(successorOf(spec, 200)).toBe('v2');
    const allRetired = { versions: [v('v1', true, 100), v('v2', false)] } as unknown as MountedSpec;
    expect(successorOf(allRetired, 200)).toBeNull();
  });
});

describe('createChallenge', () => {
  const spec = { name: 'Shop', bearer: true, apiKeyHeader: 'X-API-Key' } as MountedSpec;
  it('puts error parameters in the challenge of the scheme used', () => {
    const challenge = createChallenge(spec);
    expect(challenge(null)).toBe('Bearer realm="shop", ApiKey realm="shop", header="X-API-Key"');
    expect(challenge('bearer', 'error="invalid_token"')).toBe('Bearer realm="shop", error="invalid_token", ApiKey realm="shop", header="X-API-Key"');
    expect(challenge('apiKey', 'error="invalid_token"')).toBe('Bearer realm="shop", ApiKey realm="shop", header="X-API-Key", error="invalid_token"');
  });
});

describe('Retry-After', () => {
  it.each([
    ['3', 3_000],
    ['1.5', 1_500],
    ['-5', null],
    ['soon', null],
    ['', null],
    ['0x10', null],
    ['Thu, 01 Jan 1970 00:00:10 GMT', 5_000],
  ])('%j reads as %s ms', (value, ms) => {
    expect(retryAfterMs(value, 5_000)).toBe(ms);
  });

  it('an unreadable value falls back to the backoff; a 409 is never retried', () => {
    const headers = new Headers({ 'retry-after': '-5' });
    expect(retryDelay(new ApiError('x', 503, headers, null), 1, { retryDelay: 100 }, () => 1)).toBe(100);
    expect(retryDelay(new ConflictError('x', 409, new Headers(), null), 1, {})).toBeNull();
  });
});
