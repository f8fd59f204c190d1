/**
 * `packages/runtime/src/invoke.ts` as source: user code called safely. A handler that answers synchronously gets
 * its outcome in the same tick (no promise, no timer), so a route can answer without waiting a turn; one
 * that returns a promise is raced against the request timeout; thrown problems are answers, other errors not.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { invoke, whenSettled, type Outcome } from '../../packages/runtime/src/invoke.ts';
import { NotFound } from '../../packages/runtime/src/problems.ts';

const logged: unknown[] = [];
const request = { log: { error: (obj: unknown) => logged.push(obj) } } as unknown as FastifyRequest;

describe('invoke', () => {
  it('a synchronous answer is an outcome at once, not a promise', () => {
    const outcome = invoke(request, 'handlers.orders.get', 1000, () => ({ id: 'a' }));
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toEqual({ kind: 'value', value: { id: 'a' } });
  });
  it('a synchronous throw: a problem is a value, anything else an error', () => {
    const problem = new NotFound();
    expect(
      invoke(request, 's', 1000, () => {
        throw problem;
      }),
    ).toEqual({ kind: 'value', value: problem });
    const error = new Error('boom');
    expect(
      invoke(request, 's', 1000, () => {
        throw error;
      }),
    ).toEqual({ kind: 'error', error });
  });
  it('a promise settles into an outcome; a rejected problem is a value', async () => {
    const pending = invoke(request, 's', 1000, async () => 7);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ kind: 'value', value: 7 });
    expect(await invoke(request, 's', 1000, () => Promise.reject(new NotFound()))).toMatchObject({ kind: 'value' });
  });
  it('a promise that does not settle in time is a timeout; its late failure is logged', async () => {
    let fail: (e: Error) => void = () => undefined;
    const outcome = await invoke(
      request,
      'handlers.slow',
      20,
      () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    );
    expect(outcome).toEqual({ kind: 'timeout' });
    fail(new Error('late'));
    await new Promise((r) => setTimeout(r, 5));
    expect(logged).toContainEqual(expect.objectContaining({ source: 'handlers.slow' }));
  });
});

describe('whenSettled', () => {
  const next = (o: Outcome<number>) => (o.kind === 'value' ? Number(o.value) * 2 : -1);
  it('continues in the same tick with an outcome that is there', () => {
    expect(whenSettled<number, number>({ kind: 'value', value: 21 }, next)).toBe(42);
  });
  it('continues when a pending outcome settles', async () => {
    const result = whenSettled<number, number>(Promise.resolve({ kind: 'value', value: 4 }), next);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(8);
  });
});
