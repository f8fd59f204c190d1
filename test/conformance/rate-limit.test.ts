/**
 * A run respects the server's rate limits: a 429 is retried after the wait its Retry-After asks for (through the
 * injected sleep, so no test waits), and one that asks for longer than the bound is not waited out but reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_CLOCK, retryDelay } from '../../packages/conformance/src/http.ts';
import { conform, failureLines, loadExample, stopAll, type Example } from './helpers.ts';

let notes: Example;
beforeAll(async () => {
  notes = await loadExample('notes');
});
afterAll(stopAll);

describe('429 Too Many Requests', () => {
  it('waits as long as Retry-After says (seconds or a date), else a doubling backoff', () => {
    expect(retryDelay('3', 0, 0)).toBe(3000);
    expect(retryDelay('Thu, 01 Jan 1970 00:00:10 GMT', 0, 4000)).toBe(6000);
    expect(retryDelay(null, 0, 0)).toBe(1000);
    expect(retryDelay('soon', 2, 0)).toBe(4000);
  });

  it('retries every 429 after its Retry-After, and the run passes', async () => {
    let count = 0;
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (_request, reply) => {
          // Every fifth request is refused once, as a limiter in front of the server would.
          if (++count % 5 === 0) return reply.code(429).header('retry-after', '2').send();
        }),
    });
    const waits: number[] = [];
    const report = await conform(notes.contract, server.url, { clock: { ...REAL_CLOCK, sleep: async (ms) => void waits.push(ms) } });
    expect(failureLines(report)).toBe('');
    expect(waits.length).toBe(Math.floor(count / 5));
    expect(new Set(waits)).toEqual(new Set([2000]));
    expect(report.requests).toBe(count);
    expect(report.incomplete).toEqual([]);
  });

  it('does not wait longer than the bound: the 429 is reported with its request', async () => {
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (request, reply) => {
          if (request.method === 'DELETE') return reply.code(429).header('retry-after', '120').send();
        }),
    });
    const waits: number[] = [];
    const report = await conform(notes.contract, server.url, {
      versions: ['2025-06'],
      only: ['labels'],
      maxWait: 60_000,
      clock: { ...REAL_CLOCK, sleep: async (ms) => void waits.push(ms) },
    });
    expect(waits).toEqual([]);
    const failure = report.results.find((r) => r.check === 'delete')!.failures[0]!;
    expect(failure.message).toMatch(/deleting the resource: answered 429, expected 204/);
    expect(failure.request?.method).toBe('DELETE');
    expect(report.leftovers.length).toBeGreaterThan(0);
    expect(report.leftovers[0]!.reason).toBe('DELETE answered 429');
    // A request the run gave up on leaves the run incomplete (the command exits 3), not failed by the server's fault.
    expect(report.incomplete.map((i) => i.reason)).toEqual(['rate-limited']);
  });
});
