/**
 * The runtime is copied verbatim into generated output and never formatted there: every file under
 * `runtime/` must already be exactly what prettier prints with its default options.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { RUNTIME_DIR, loadRuntime } from '../../generator/templates/load-templates.ts';

describe('runtime/', () => {
  const files = [...loadRuntime().keys()];

  it('holds the client and zod runtime (the server runtime is the @restgen/runtime package)', () => {
    expect(files.some((f) => f.startsWith('server/'))).toBe(false);
    expect(files).toContain('client/transport.ts');
    expect(files).toContain('zod/helpers.ts');
  });

  it.each(files)('%s is formatted as prettier prints it with its defaults', async (file) => {
    const text = readFileSync(path.join(RUNTIME_DIR, file), 'utf8');
    expect(await format(text, { parser: 'typescript' })).toBe(text);
  });
});
