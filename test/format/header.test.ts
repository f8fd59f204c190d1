/**
 * The generated-file header: what `withHeader` writes, `readHeader` reads back, from the text or from the bytes
 * as read (large files are hashed without being decoded), and a hand edit anywhere in the body shows.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FileLanguage } from '../../generator/emit/types.ts';
import { readHeader, withHeader } from '../../generator/format/header.ts';

const BODIES: Record<FileLanguage, string> = {
  typescript: "import { z } from 'zod';\n\n// naïve – ü 😀\nexport const A = z.string();\n",
  markdown: '# Changes\n\n| a | b |\n| - | - |\n| ü | 😀 |\n',
  json: '{\n  "openapi": "3.1.0",\n  "info": { "title": "Shöp 😀" }\n}\n',
};

describe('the generated-file header', () => {
  it('reads back what it wrote, from text and from bytes alike, and notices an edit', () => {
    for (const [language, body] of Object.entries(BODIES) as [FileLanguage, string][]) {
      const text = withHeader(language, body, '../apï/api.ts', '0123456789abcdef');
      const bytes = Buffer.from(text, 'utf8');
      const fromText = readHeader(text);
      expect(fromText, language).toEqual({
        hashes: { input: '0123456789abcdef', output: expect.stringMatching(/^[0-9a-f]{16}$/) },
        intact: true,
        earlier: false,
      });
      // The header names no restgen version: another restgen writing the same body writes the same bytes.
      expect(text).not.toMatch(/ v=/);
      expect(readHeader(bytes), language).toEqual(fromText);
      // One character changed at the very end of the body.
      const edited = text.slice(0, -2) + (text.at(-2) === '}' ? ']' : 'x') + '\n';
      expect(readHeader(edited)?.intact, language).toBe(false);
      expect(readHeader(Buffer.from(edited)), language).toEqual(readHeader(edited));
      // Not restgen's: no header at all.
      expect(readHeader(body)).toBeUndefined();
      expect(readHeader(Buffer.from(body))).toBeUndefined();
    }
  });

  it("hashes the body with SHA-1, and still reads an earlier restgen's SHA-256 header as intact", () => {
    const sha = (algorithm: string, text: string) => createHash(algorithm).update(`${text}\0`).digest('hex').slice(0, 16);
    const body = BODIES.typescript;
    const text = withHeader('typescript', body, '../api.ts', '0123456789abcdef');
    expect(readHeader(text)?.hashes.output).toBe(sha('sha1', body));
    const earlier = text.replace(sha('sha1', body), sha('sha256', body));
    expect(earlier).not.toBe(text);
    expect(readHeader(earlier)).toMatchObject({ intact: true, earlier: true, hashes: { output: sha('sha256', body) } });
    expect(readHeader(Buffer.from(earlier))?.intact).toBe(true);
    // An earlier restgen's header with its version: restgen's, intact, rewritten to today's form.
    const versioned = text.replace(/out=([0-9a-f]{16})/, 'out=$1 v=0.1.0');
    expect(readHeader(versioned)).toMatchObject({ intact: true, earlier: true });
    // Neither hash of this body: edited.
    expect(readHeader(text.replace(sha('sha1', body), sha('md5', body)))?.intact).toBe(false);
  });
});
