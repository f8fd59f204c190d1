/**
 * Attack: in-memory rate limits hold under many clients. @fastify/rate-limit keeps its in-memory counters
 * in an LRU map (5,000 entries unless told otherwise): once that many other clients (or principals) were
 * counted, a client's counter was forgotten and its window started over.
 */
import { describe, expect, it } from 'vitest';
import { startVault, vaultServer } from './helpers.ts';

describe('in-memory rate limits with many clients', () => {
  it("a client's count survives 6,000 other principals counted in the same window", async () => {
    const mod = await vaultServer('rate-limits');
    const server = await startVault(mod, mod.createMemoryHandlers());
    try {
      // events: 1000 requests per minute per principal; every answer says how many are left.
      const remaining = async (token: string) => {
        const answer = await server.call('GET', '/v3/events', { token });
        expect(answer.status).toBe(200);
        return Number(answer.headers.get('ratelimit-remaining'));
      };
      expect(await remaining('watched')).toBe(999);
      expect(await remaining('watched')).toBe(998);
      for (let i = 0; i < 6_000; i += 200) await Promise.all(Array.from({ length: 200 }, (_, j) => remaining(`other-${i + j}`)));
      expect(await remaining('watched')).toBe(997);
    } finally {
      await server.close();
    }
  }, 60_000);
});
