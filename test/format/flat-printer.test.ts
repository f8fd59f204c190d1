/**
 * The flat printer (`flat.ts`) against the document printer it shortcuts: for arbitrary expressions and types,
 * the flat text is exactly the document's text with every group flat, and it is undefined exactly when the
 * document must break. The layout stage trusts the flat text of a line that fits without building its document.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { e } from '../../generator/printer/ast.ts';
import { printExpr } from '../../generator/printer/expressions.ts';
import { flatNode } from '../../generator/printer/flat.ts';
import type { builders } from 'prettier/doc';
import { layOut, Marks } from '../../generator/printer/layout.ts';
import { printType } from '../../generator/printer/types.ts';
import { expr, type } from './printer-nodes.ts';

type Doc = builders.Doc;

/**
 * The reference: a document's text with every group on one line, or undefined when it must break (a group broken
 * by its own or a nested hard line or break).
 */
function flatText(doc: Doc): string | undefined {
  const out: string[] = [];
  return flat(doc, out) ? out.join('') : undefined;
}

/** Appends the flat text of a document to `out`; false when it must break. */
function flat(doc: Doc, out: string[]): boolean {
  if (typeof doc === 'string') {
    out.push(doc);
    return true;
  }
  if (Array.isArray(doc)) return doc.every((d) => flat(d, out));
  switch (doc.type) {
    case 'group':
      if (doc.break) return false;
      return flat(doc.expandedStates ? doc.expandedStates[0]! : doc.contents, out);
    case 'indent':
    case 'align':
    case 'label':
    case 'line-suffix':
      return flat(doc.contents, out);
    case 'indent-if-break':
      return flat((doc as unknown as { contents: Doc }).contents, out);
    case 'if-break':
      return flat(doc.flatContents, out);
    case 'fill':
      return doc.parts.every((d) => flat(d, out));
    case 'line':
      if (doc.hard) return false;
      if (!doc.soft) out.push(' ');
      return true;
    case 'break-parent':
      return false;
    default:
      return true;
  }
}

describe('the flat printer', () => {
  it("prints an expression as its document's flat text, and refuses exactly what must break", () => {
    fc.assert(
      fc.property(expr, (node) => {
        expect(flatNode(node)).toBe(flatText(printExpr(node)));
      }),
      { numRuns: 3000 },
    );
  });

  it("prints a type as its document's flat text, and refuses exactly what must break", () => {
    fc.assert(
      fc.property(type, (node) => {
        expect(flatNode(node)).toBe(flatText(printType(node)));
      }),
      { numRuns: 3000 },
    );
  });

  it('lays out a line the same whether or not its flat text fits', () => {
    const marks = new Marks();
    const short = marks.mark(e.chain(e.id('z'), ['string'], ['min', e.num(1)], ['max', e.num(200)]));
    const long = marks.mark(e.obj([e.prop('name', e.str('x'.repeat(60))), e.prop('status', e.str('draft'))]));
    const expanded = marks.mark(e.obj([e.prop('a', e.num(1))], true));
    const laidOut = layOut(`export const a = ${short};\nexport const b = ${long};\nexport const c = ${expanded};\n`, marks);
    expect(laidOut).toBe(
      [
        'export const a = z.string().min(1).max(200);',
        'export const b = {',
        `  name: "${'x'.repeat(60)}",`,
        '  status: "draft",',
        '};',
        'export const c = {',
        '  a: 1,',
        '};',
        '',
      ].join('\n'),
    );
  });
});
