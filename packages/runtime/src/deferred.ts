/**
 * Work a route needs only once it is called, done then: a server mounts every operation of every version
 * of every collection, most of which a given process may never serve, and building each one's parsers,
 * writers and migrations at start-up cost start-up time and memory for all of them.
 */
import type { Handle } from './state.js';

/** `make()`, called the first time the function it returns is, and kept. */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T | undefined;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/** A handle built by `make` on its first request (a build that throws answers that request 500, and is tried again on the next). */
export function deferredHandle(make: () => Handle): Handle {
  const handle = once(make);
  return (request, reply) => handle()(request, reply);
}
