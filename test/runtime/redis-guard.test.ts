/**
 * `packages/runtime/src/redis-guard.ts` as source: every Redis command of a server is bounded, and once one failed
 * for want of Redis the next ones fail at once for a moment (on an injected clock), so a request that needs Redis
 * several times waits out the bound once. An error reply of a working Redis fails only its own command. Which
 * prefixes put every key in one slot of a cluster.
 */
import { describe, expect, it } from 'vitest';
import { RedisUnavailable, createRedisGuard, defaultRedisPrefix, hasHashTag } from '../../packages/runtime/src/redis-guard.ts';

/** An error as ioredis reports a Redis error reply. */
const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('the Redis guard', () => {
  it('turns a command that does not answer in time, or fails, into RedisUnavailable', async () => {
    const guard = createRedisGuard(20, 1_000, () => 0);
    await expect(guard.run(() => new Promise(() => undefined))).rejects.toBeInstanceOf(RedisUnavailable);
    const fresh = createRedisGuard(1_000, 1_000, () => 0);
    await expect(fresh.run(() => Promise.reject(new Error('ECONNREFUSED')))).rejects.toBeInstanceOf(RedisUnavailable);
    await expect(createRedisGuard(1_000).run(async () => 'OK')).resolves.toBe('OK');
  });

  it('after a command found Redis away, fails the next ones at once without sending them, until the cooldown passed', async () => {
    let now = 1_000_000;
    const guard = createRedisGuard(20, 1_000, () => now);
    await expect(guard.run(() => new Promise(() => undefined))).rejects.toBeInstanceOf(RedisUnavailable);
    let sent = 0;
    const command = async () => (sent++, 'OK');
    // Fails before any timer could run: the promise is already rejected.
    const at = guard.run(command);
    await expect(Promise.race([at, Promise.resolve('pending')])).rejects.toBeInstanceOf(RedisUnavailable);
    now += 999;
    await expect(guard.run(command)).rejects.toBeInstanceOf(RedisUnavailable);
    expect(sent).toBe(0);
    now += 1;
    await expect(guard.run(command)).resolves.toBe('OK');
    expect(sent).toBe(1);
  });

  it('an error reply of a working Redis fails its own command only; a cluster that cannot serve the slot opens the guard', async () => {
    const now = 5_000;
    const guard = createRedisGuard(1_000, 1_000, () => now);
    await expect(guard.run(() => Promise.reject(reply('WRONGTYPE Operation against a key holding the wrong kind of value')))).rejects.toBeInstanceOf(
      RedisUnavailable,
    );
    await expect(guard.run(async () => 'still there')).resolves.toBe('still there');
    await expect(guard.run(() => Promise.reject(reply('CLUSTERDOWN The cluster is down')))).rejects.toBeInstanceOf(RedisUnavailable);
    let sent = 0;
    await expect(guard.run(async () => sent++)).rejects.toBeInstanceOf(RedisUnavailable);
    expect(sent).toBe(0);
  });

  it('a command that throws before it returns a promise is a failure too', async () => {
    const guard = createRedisGuard(1_000);
    await expect(
      guard.run(() => {
        throw new Error('Connection is closed.');
      }),
    ).rejects.toBeInstanceOf(RedisUnavailable);
  });
});

describe('hash tags', () => {
  it('the default prefix holds one; a prefix holds one only when its braces close around something within it', () => {
    expect(defaultRedisPrefix('Shop')).toBe('restgen:{shop}:');
    expect(hasHashTag(defaultRedisPrefix('Shop'))).toBe(true);
    expect(hasHashTag('app:{tenant-7}:')).toBe(true);
    for (const prefix of ['restgen:shop:', '', 'a:{}:', 'a:{open:', 'a:}{', 'a:}x{']) expect(hasHashTag(prefix), prefix).toBe(false);
  });
});
