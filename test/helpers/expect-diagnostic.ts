/**
 * @module Test helper: generates an API module that holds exactly one mistake and asserts the one
 * diagnostic it gives: its code, a part of its message, and its exact line and column.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { locateDiagnostics } from '../../generator/model/locate.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { lineOf, writeFiles } from './temp-api.ts';

/** What the one diagnostic must be: on the line marked `// <-`, at the column where `at` starts on it. */
export interface ExpectedDiagnostic {
  readonly code: DiagnosticCode;
  readonly at: string;
  /** A part of the message. */
  readonly says: string;
}

/** Writes `text` as `dir/api.ts`, generates, and asserts that it fails with exactly `expected`, writing nothing. */
export async function expectOnlyDiagnostic(dir: string, text: string, expected: ExpectedDiagnostic): Promise<void> {
  writeFiles(dir, { 'api.ts': text });
  const result = await generate({ apiPath: path.join(dir, 'api.ts') });
  expect(result.ok).toBe(false);
  expect(existsSync(path.join(dir, 'generated'))).toBe(false);
  const located = await locateDiagnostics(result.diagnostics);
  const all = located.map((d) => `${d.code} ${d.loc?.line}:${d.column} ${d.message}`).join('\n');
  expect(located, all).toHaveLength(1);
  const [d] = located;
  const line = lineOf(text, '// <-');
  expect(d!.code, all).toBe(expected.code);
  expect(d!.message).toContain(expected.says);
  expect({ line: d!.loc?.line, column: d!.column }).toEqual({ line, column: text.split('\n')[line - 1]!.indexOf(expected.at) + 1 });
}
