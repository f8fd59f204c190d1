/**
 * The generated-file header: what `withHeader` writes, `readHeader` reads back, from the text or from the bytes
 * as read (large files are hashed without being decoded), and a hand edit anywhere in the body shows. It names the
 * API module and hashes the body, nothing else: no key, no restgen version or build.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FileLanguage } from '../../generator/emit/types.ts';
import { headedBytes, headerOf, isGenerated, readHeader, sourceOf, withHeader } from '../../generator/format/header.ts';

const BODIES: Record<FileLanguage, string> = {
  typescript: "import { z } from 'zod';\n\n// naïve – ü 😀\nexport const A = z.string();\n",
  markdown: '# Changes\n\n| a | b |\n| - | - |\n| ü | 😀 |\n',
  json: '{\n  "openapi": "3.1.0",\n  "info": { "title": "Shöp 😀" }\n}\n',
};

describe('the generated-file header', () => {
  it('reads back what it wrote, from text and from bytes alike, and notices an edit', () => {
    for (const [language, body] of Object.entries(BODIES) as [FileLanguage, string][]) {
      const text = withHeader(language, body, '../apï/api.ts');
      const bytes = Buffer.from(text, 'utf8');
      const fromText = readHeader(text);
      expect(fromText, language).toEqual({ source: '../apï/api.ts', output: expect.stringMatching(/^[0-9a-f]{16}$/), intact: true });
      // The header names no restgen version and no key: whoever writes the same body writes the same bytes.
      expect(text).not.toMatch(/ v=| in=/);
      expect(readHeader(bytes), language).toEqual(fromText);
      // headedBytes gives the same bytes, in pieces, and the header alone is what headerOf builds from the hash.
      const { pieces, out } = headedBytes(language, body, '../apï/api.ts');
      expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
      expect(out).toBe(fromText?.output);
      expect(bytes.subarray(0, pieces[0]!.length).equals(headerOf(language, '../apï/api.ts', out))).toBe(true);
      // One character changed at the very end of the body.
      const edited = text.slice(0, -2) + (text.at(-2) === '}' ? ']' : 'x') + '\n';
      expect(readHeader(edited)?.intact, language).toBe(false);
      expect(readHeader(Buffer.from(edited)), language).toEqual(readHeader(edited));
      // Not restgen's: no header at all.
      expect(readHeader(body)).toBeUndefined();
      expect(readHeader(Buffer.from(body))).toBeUndefined();
      expect(isGenerated(text.slice(0, 600))).toBe(true);
      expect(isGenerated(body)).toBe(false);
    }
  });

  it("hashes the body with SHA-1, and reads an earlier restgen's header (with a key and a version) as restgen's", () => {
    const sha1 = (text: string) => createHash('sha1').update(`${text}\0`).digest('hex').slice(0, 16);
    const body = BODIES.typescript;
    const text = withHeader('typescript', body, '../api.ts');
    expect(readHeader(text)?.output).toBe(sha1(body));
    // An earlier restgen wrote `in=<key>` before the hash, and once ` v=<version>` after it: still restgen's (so it
    // is overwritten and removed like any generated file), and intact when the body is.
    const earlier = text.replace('restgen:hash out=', 'restgen:hash in=0123456789abcdef out=').replace(/(out=[0-9a-f]{16})/, '$1 v=0.1.0');
    expect(readHeader(earlier)).toEqual({ source: '../api.ts', output: sha1(body), intact: true });
    expect(isGenerated(earlier)).toBe(true);
    expect(sourceOf(earlier)).toBe('../api.ts');
    // Another hash of this body: edited.
    expect(readHeader(text.replace(sha1(body), '0123456789abcdef'))?.intact).toBe(false);
  });
});
