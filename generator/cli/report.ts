/**
 * @module Prints diagnostics as the CLI does everywhere: located (oxc's parser finds the column, and only
 * when there is something to report), in source order, one line each, coloured on a terminal.
 */
import type { Diagnostic } from '../model/diagnostics.ts';
import type { CliIO } from './io.ts';
import { paintOf } from './style.ts';

/** Prints `diagnostics` and returns whether any was an error; `written` adds "nothing was written" to the count. */
export async function reportDiagnostics(diagnostics: readonly Diagnostic[], io: CliIO, written = true): Promise<boolean> {
  if (diagnostics.length === 0) return false;
  // Loaded only when there is something to report: most runs of a build step report nothing.
  const { formatDiagnostic, locateDiagnostics, sortDiagnostics } = await import('../model/locate.ts');
  const p = paintOf(io);
  const style = { location: p.bold, error: (t: string) => p.bold(p.red(t)), warning: (t: string) => p.bold(p.yellow(t)), code: p.dim };
  const located = sortDiagnostics(await locateDiagnostics(diagnostics));
  for (const d of located) io.err(formatDiagnostic(d, io.cwd, style) + '\n');
  const errors = located.filter((d) => d.severity === 'error').length;
  if (errors > 0) io.err(p.red(`${errors} error${errors === 1 ? '' : 's'}${written ? '; nothing was written' : ''}.`) + '\n');
  return errors > 0;
}
