/**
 * @module The part of autocannon's API the server and instances benchmarks use (the package ships no types).
 */
declare module 'autocannon' {
  /** One request of a run's sequence; `setupRequest` may change it before each send. */
  export interface Request {
    readonly method?: string;
    readonly path?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly setupRequest?: (request: Request) => Request;
  }
  /** Options of one load run. */
  interface Options {
    readonly url: string;
    readonly method?: string;
    readonly connections?: number;
    /** Seconds. */
    readonly duration?: number;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly requests?: readonly Request[];
  }
  /** What a run measured. */
  interface Result {
    readonly requests: { readonly average: number; readonly total: number };
    /** Milliseconds. */
    readonly latency: { readonly p50: number; readonly p99: number };
    readonly non2xx: number;
    readonly errors: number;
    readonly timeouts: number;
    /** Answers counted by status code. */
    readonly statusCodeStats?: Readonly<Record<string, { readonly count: number }>>;
  }
  /** Runs a load test; resolves when it ends. */
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
