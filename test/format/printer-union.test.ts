/**
 * Fixed cases of the printer's union layout against prettier 3 (defaults, parser `typescript`), among them
 * the one the property test found (seeds 2 and 3): an optional property whose type is an array of arrays of
 * an object type `| null`. Prettier indents such a union after a soft line break, so when it does not fit
 * after `key?: ` it moves to the next line whole and breaks into `| member` lines only if it still does not fit.
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { t, type Type } from '../../generator/printer/ast.ts';
import { layOut, Marks } from '../../generator/printer/layout.ts';

/** Renders `lines`, where `$` stands for `node`, as a template would, and lays the markers out. */
function render(lines: string, node: Type): string {
  const marks = new Marks();
  return layOut(lines.replace('$', marks.mark(node)), marks);
}

const obj = (...names: string[]): Type => t.lit(names.map((n, i) => t.prop(n, t.ref(i % 2 === 0 ? 'number' : 'string'))));
const nullable = (x: Type): Type => t.union([x, t.ref('null')]);

describe('printer: unions as prettier prints them', () => {
  it('keeps `{ ... }[][] | null` on the line after `key?:` when it fits there', async () => {
    const rendered = render('export type X = {\n  aaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbb?: $;\n};\n', nullable(t.array(t.array(obj('a_w', 'bbbbbbbbbbbbb')))));
    expect(rendered).toBe('export type X = {\n  aaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbb?:\n    { a_w: number; bbbbbbbbbbbbb: string }[][] | null;\n};\n');
    expect(await prettier.format(rendered, { parser: 'typescript' })).toBe(rendered);
  });

  const cases: readonly (readonly [string, string, Type])[] = [
    ['array of object | null, fits after the key', 'export type X = {\n  a?: $;\n};\n', nullable(t.array(t.array(obj('a_w', 'b'))))],
    [
      'array of object | null, too long for the next line too',
      'export type X = {\n  aaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbb?: $;\n};\n',
      nullable(t.array(t.array(obj('a_w', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')))),
    ],
    [
      'array of object | null, expanded object',
      'export type X = {\n  aaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbb?: $;\n};\n',
      nullable(t.array(t.lit([t.prop('a_w', t.ref('number'))], true))),
    ],
    [
      'object | null is hugged',
      'export type X = {\n  aaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbb?: $;\n};\n',
      nullable(obj('a_w', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')),
    ],
    [
      'long string-literal union as a property',
      'export type X = {\n  status: $;\n};\n',
      t.union(['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded', 'lost'].map(t.str)),
    ],
    [
      'long union as a type alias',
      'export type Status = $;\n',
      t.union(['pending_payment', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'].map(t.str)),
    ],
    [
      'array-of-object union as a type alias',
      'export type Rows = $;\n',
      nullable(t.array(obj('aaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'))),
    ],
    [
      'union as an array element',
      'export type X = {\n  items: $;\n};\n',
      t.array(t.union(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccc', 'dddd'].map(t.str))),
    ],
    [
      'union as a type argument',
      'export type X = {\n  items: $;\n};\n',
      t.ref('Array', [t.union(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccc', 'dddd'].map(t.str))]),
    ],
  ];
  for (const [name, lines, node] of cases) {
    it(name, async () => {
      const rendered = render(lines, node);
      expect(await prettier.format(rendered, { parser: 'typescript' })).toBe(rendered);
    });
  }
});
