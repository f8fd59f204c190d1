/**
 * @module The part of autocannon's API the server benchmark uses (the package ships no types).
 */
declare module 'autocannon' {
  /** Options of one load run. */
  interface Options {
    readonly url: string;
    readonly method?: string;
    readonly connections?: number;
    /** Seconds. */
    readonly duration?: number;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
  }
  /** What a run measured. */
  interface Result {
    readonly requests: { readonly average: number; readonly total: number };
    readonly non2xx: number;
    readonly errors: number;
    /** Answers counted by status code. */
    readonly statusCodeStats?: Readonly<Record<string, { readonly count: number }>>;
  }
  /** Runs a load test; resolves when it ends. */
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
