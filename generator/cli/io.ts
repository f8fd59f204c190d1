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
  /**
   * Sets the exit status; the highest status set wins (0 fine, 1 findings, 2 usage or DSL errors, 3 a run that
   * could not complete: `restgen conformance` against a server it could not reach or finish checking).
   */
  exit(code: 0 | 1 | 2 | 3): void;
  /** Whether `--debug` was given: print stack traces of unexpected errors. */
  readonly debug: boolean;
  /** The working directory paths are resolved against. */
  readonly cwd: string;
  /** `--quiet`: print only errors and warnings (no progress, no "up to date"). */
  readonly quiet?: boolean;
  /** Whether stderr gets colours (decided once, from the terminal, `NO_COLOR`, `FORCE_COLOR` and `--no-color`). */
  readonly color?: boolean;
}

/** Progress and success lines: printed on stderr unless `--quiet`. */
export function info(io: CliIO, text: string): void {
  if (!io.quiet) io.err(text);
}

/** A one-line usage error (`restgen generate: --out names a file ...`) and exit status 2. */
export function usageError(io: CliIO, command: string, message: string): void {
  io.err(`restgen ${command}: ${message}\n`);
  io.exit(2);
}
