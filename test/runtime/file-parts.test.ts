/**
 * The parts of file handling that need no server: the leading-bytes table, `Range` and `Content-Disposition`,
 * file names as kept, and the disk store (a failed put leaves nothing; keys cannot leave the folder).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { dispositionOf, rangeOf } from '../../packages/runtime/src/byte-range.ts';
import { SIGNATURES, SNIFF_BYTES, sniff, sniffAmong } from '../../packages/runtime/src/file-sniff.ts';
import { createDiskFileStore, isFileKey } from '../../packages/runtime/src/file-store.ts';
import { cleanFileName, createFileLinker, uploaded } from '../../packages/runtime/src/file-values.ts';
import type { RouteSpec } from '../../packages/runtime/src/spec.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR....');

describe('leading bytes', () => {
  it('a type with signatures must start with one', () => {
    expect(sniff('application/pdf', bytes('%PDF-1.7\n%abc'))).toEqual({ ok: true });
    expect(sniff('image/png', PNG)).toEqual({ ok: true });
    expect(sniff('application/pdf', PNG)).toEqual({ ok: false, looksLike: 'image/png' });
    expect(sniff('image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toEqual({ ok: true });
    // RIFF without WEBP at offset 8 is a WAV, not a WebP.
    expect(sniff('image/webp', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toEqual({ ok: false, looksLike: 'audio/wav' });
    expect(sniff('image/jpeg', bytes([0xff, 0xd8]))).toEqual({ ok: false, looksLike: null });
  });

  it('a type without signatures refuses only content with a distinctive signature of another type', () => {
    expect(sniff('text/csv', bytes('BMW,ID3,cars\n1,2,3'))).toEqual({ ok: true });
    expect(sniff('text/csv', bytes('%PDF-1.4 x'))).toEqual({ ok: false, looksLike: 'application/pdf' });
    expect(sniff('application/json', PNG)).toEqual({ ok: false, looksLike: 'image/png' });
    expect(sniff('text/plain', bytes(''))).toEqual({ ok: true });
  });

  it('an undeclared type is the declared type whose signature the content has', () => {
    expect(sniffAmong(PNG, ['application/pdf', 'image/png'])).toBe('image/png');
    expect(sniffAmong(bytes('plain text'), ['application/pdf', 'image/png'])).toBeNull();
    expect(sniffAmong(bytes('PK', [3, 4], 'rest'), ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'])).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('reads no more bytes than the longest signature needs', () => {
    const longest = Math.max(...Object.values(SIGNATURES).flatMap((sigs) => sigs.flatMap((s) => s.map(([o, b]) => o + b.length))));
    expect(SNIFF_BYTES).toBe(longest);
    expect(SNIFF_BYTES).toBeLessThanOrEqual(16);
  });
});

describe('Range', () => {
  const cases: [string | undefined, number, ReturnType<typeof rangeOf>][] = [
    [undefined, 100, { kind: 'whole' }],
    ['bytes=0-9', 100, { kind: 'part', range: { start: 0, end: 9 } }],
    ['bytes=90-', 100, { kind: 'part', range: { start: 90, end: 99 } }],
    ['bytes=90-500', 100, { kind: 'part', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'part', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'part', range: { start: 0, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=100-200', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=5-2', 100, { kind: 'whole' }],
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
    ['items=0-1', 100, { kind: 'whole' }],
    ['bytes=', 100, { kind: 'whole' }],
    ['bytes=99999999999999999999-', 100, { kind: 'whole' }],
  ];
  it.each(cases)('%s of %i bytes', (header, size, expected) => {
    expect(rangeOf(header, size)).toEqual(expected);
  });
});

describe('Content-Disposition', () => {
  it('names the file exactly in filename* and in plain ASCII in filename, with nothing that ends or escapes the quotes', () => {
    expect(dispositionOf('invoice.pdf')).toBe(`attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`);
    expect(dispositionOf('Rechnung März "2026".pdf')).toBe(
      `attachment; filename="Rechnung M_rz _2026_.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%222026%22.pdf`,
    );
    expect(dispositionOf('a\\b;c%.pdf')).toBe(`attachment; filename="a_b;c%.pdf"; filename*=UTF-8''a%5Cb%3Bc%25.pdf`);
    expect(decodeURIComponent(dispositionOf('日本語 📄.pdf').split("UTF-8''")[1]!)).toBe('日本語 📄.pdf');
  });

  it('keeps a file name without its folders or control characters', () => {
    expect(cleanFileName('C:\\Users\\ada\\invoice.pdf')).toBe('invoice.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('in\u0000voi\r\nce\u2028.pdf')).toBe('invoice.pdf');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName(undefined)).toBe('file');
    expect([...cleanFileName('x'.repeat(300))].length).toBe(255);
  });
});

describe('file values', () => {
  const route = { id: 'id', files: { scan: { key: 'invoice', maxBytes: 10, types: ['application/pdf'] } } } as unknown as RouteSpec;
  const stored = { name: 'a.pdf', type: 'application/pdf', size: 3, sha256: 'a'.repeat(64), key: 'orders/invoice/k1' };

  it('shows a stored file as its metadata and download path in the version, never its key', () => {
    const link = createFileLinker(route, '/v1/orders');
    expect(link({ id: 'o1', invoice: stored, other: 1 })).toEqual({
      id: 'o1',
      invoice: { name: 'a.pdf', type: 'application/pdf', size: 3, sha256: 'a'.repeat(64), href: '/v1/orders/o1/scan' },
      other: 1,
    });
    // Not a stored file (left for the response schema to judge), or no file at all: as it is.
    expect(link({ id: 'o1', invoice: { name: 'x' } })).toEqual({ id: 'o1', invoice: { name: 'x' } });
    const none = { id: 'o1' };
    expect(link(none)).toBe(none);
  });

  it('marks uploads with a symbol that no JSON body carries', () => {
    const marked = uploaded(stored);
    expect(JSON.parse(JSON.stringify(marked))).toEqual(stored);
    expect(Object.getOwnPropertySymbols(marked)).toHaveLength(1);
    expect(Object.getOwnPropertySymbols(JSON.parse(JSON.stringify(marked)))).toHaveLength(0);
  });
});

describe('the disk store', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const store = createDiskFileStore(dir);
  const files = (): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name);

  it('puts, gets (whole or a range), and deletes', async () => {
    await store.put('orders/invoice/k1', Readable.from([Buffer.from('hello '), Buffer.from('world')]), { name: 'a.txt', type: 'text/plain' });
    const whole = await store.get('orders/invoice/k1');
    expect(whole?.size).toBe(11);
    expect(await text(whole!.body)).toBe('hello world');
    const part = await store.get('orders/invoice/k1', { start: 6, end: 10 });
    expect(await text(part!.body)).toBe('world');
    await store.delete('orders/invoice/k1');
    expect(await store.get('orders/invoice/k1')).toBeNull();
    await store.delete('orders/invoice/k1');
  });

  it('hands out the content as it was when looked up, even when it is deleted before the body is read', async () => {
    await store.put('orders/invoice/k3', Readable.from([Buffer.from('first')]), { name: 'c.txt', type: 'text/plain' });
    const got = await store.get('orders/invoice/k3');
    await store.delete('orders/invoice/k3');
    expect(got?.size).toBe(5);
    expect(await text(got!.body)).toBe('first');
    expect(await store.get('orders/invoice/k3')).toBeNull();
  });

  it('keeps nothing of a put whose content fails, not even a partial file', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 1));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(store.put('orders/invoice/k2', failing, { name: 'b', type: 'text/plain' })).rejects.toThrow('the client went away');
    expect(await store.get('orders/invoice/k2')).toBeNull();
    expect(files()).toEqual([]);
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '.', 'a/./b', 'a\\b', '']) expect(isFileKey(key), key).toBe(false);
    expect(isFileKey('orders/invoice/0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e')).toBe(true);
    await expect(store.get('../outside')).rejects.toThrow(TypeError);
  });
});
