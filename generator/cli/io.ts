/**
 * @module What a command may touch of the process: output streams and its exit code. Only the CLI
 * layer uses it; everything below the CLI returns data.
 */

/** Output and exit status for one CLI run. */
export interface CliIO {
  /** Normal output (stdout). */
  out(text: string): void;
  /** Diagnostics and progress (stderr). */
  err(text: string): void;
  /** Sets the exit status; the highest status set wins (0 fine, 1 findings, 2 usage or DSL errors). */
  exit(code: 0 | 1 | 2): void;
  /** Whether `--debug` was given: print stack traces of unexpected errors. */
  readonly debug: boolean;
  /** The working directory paths are resolved against. */
  readonly cwd: string;
}
