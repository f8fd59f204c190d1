/**
 * A version's `events`: `stream()` loads the event stream's code (`events.ts`: the parser and the reconnection)
 * on its first call, so a bundle whose app never streams carries none of it (bundlers split a dynamic import
 * into a chunk of its own).
 * @module
 */
import type { EventStream, StreamedEvent } from "./events.js";
import type { Transport } from "./transport.js";

/** The event stream of `version` on transport `t`. */
export function eventStream<E extends { type: string }>(
  t: Transport,
  version: string,
): EventStream<E> {
  return {
    stream(params) {
      async function* run(): AsyncGenerator<StreamedEvent<E>> {
        const { createEventStream } = await import("./events.js");
        yield* createEventStream<E>(t, version).stream(params);
      }
      return run();
    },
  };
}
