/**
 * XML without a server: content negotiation by `Accept`, the hardened reader (no DTD, no entities, depth,
 * attributes, encoding), the mapping of an XML body to the value its JSON twin is (so the same zod schema gives
 * the same issues at the same pointers), and the writer, checked against an independent parser (fast-xml-parser,
 * not the saxes reader the runtime uses) on generated values.
 */
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { negotiate, xmlMediaType } from '../../packages/runtime/src/negotiate.ts';
import { issuesOf } from '../../packages/runtime/src/problems.ts';
import { XML_MAX_DEPTH, XmlBodyError, XmlEncodingError, readXml } from '../../packages/runtime/src/xml-read.ts';
import { valueOfXml } from '../../packages/runtime/src/xml-value.ts';
import { problemXml, xmlDocument } from '../../packages/runtime/src/xml-write.ts';
import { fromIndependentXml } from '../helpers/xml.ts';

describe('content negotiation', () => {
  const both = ['json', 'xml'] as const;
  const cases: [string | undefined, 'json' | 'xml' | null, 'json' | null][] = [
    [undefined, 'json', 'json'],
    ['*/*', 'json', 'json'],
    ['application/json', 'json', 'json'],
    ['application/xml', 'xml', null],
    ['text/xml', 'xml', null],
    ['application/problem+xml', 'xml', null],
    ['application/xml, application/json', 'json', 'json'],
    ['application/xml, application/json;q=0.9', 'xml', 'json'],
    ['application/json;q=0.5, application/xml;q=0.8', 'xml', 'json'],
    ['application/*', 'json', 'json'],
    ['application/*;q=0.2, application/xml', 'xml', 'json'],
    ['*/*;q=0.1, application/xml', 'xml', 'json'],
    ['application/xml;q=0, */*', 'json', 'json'],
    ['application/json;q=0, application/xml;q=0', null, null],
    ['text/html', null, null],
    ['text/html, */*;q=0.8', 'json', 'json'],
    ['application/xml;q=1.5', 'json', 'json'],
    ['not a media range', 'json', 'json'],
  ];
  it.each(cases)('Accept: %s answers %s (JSON only: %s)', (accept, withXml, jsonOnly) => {
    expect(negotiate(accept, both)).toBe(withXml);
    expect(negotiate(accept, ['json'])).toBe(jsonOnly);
  });
  it('answers text/xml only to a client that prefers it', () => {
    expect(xmlMediaType('application/xml')).toBe('application/xml');
    expect(xmlMediaType('text/xml')).toBe('text/xml');
    expect(xmlMediaType('text/xml, application/xml;q=0.5')).toBe('text/xml');
    expect(xmlMediaType('text/xml;q=0.5, application/xml')).toBe('application/xml');
  });
});

describe('reading XML bodies', () => {
  it('refuses a document type declaration, and with it every entity but XML own five', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>';
    expect(() => readXml(xxe)).toThrow(XmlBodyError);
    expect(() => readXml(xxe)).toThrow(/document type declaration .* no DTDs, no entities/);
    const laughs = `<!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;">]><a>&l2;</a>`;
    expect(() => readXml(laughs)).toThrow(/no DTDs/);
    // Without a DTD an entity is undefined: refused, never looked up.
    expect(() => readXml('<a>&xxe;</a>')).toThrow(/undefined entity/);
    expect(readXml('<a>&amp;&lt;&gt;&quot;&apos;&#65;&#x42;</a>').text).toBe('&<>"\'AB');
  });

  it('refuses nesting deeper than the limit, attributes other than xsi:nil, and another encoding', () => {
    const deep = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(() => readXml(deep(XML_MAX_DEPTH))).not.toThrow();
    expect(() => readXml(deep(XML_MAX_DEPTH + 1))).toThrow(/deeper than 64/);
    expect(() => readXml('<a id="1"/>')).toThrow(/attribute id/);
    expect(() => readXml('<a xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="maybe"/>')).toThrow(/xsi:nil must be true or false/);
    expect(() => readXml('<?xml version="1.0" encoding="ISO-8859-1"?><a/>')).toThrow(XmlEncodingError);
    expect(() => readXml('<a><b></a>')).toThrow(/line 1, column \d+/);
    expect(() => readXml('')).toThrow(XmlBodyError);
  });

  it('keeps text as written (CDATA joined), reads nil, and namespaced names by their local name', () => {
    const root = readXml(
      '<p:order xmlns:p="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><p:name> a <![CDATA[<b>]]> c </p:name><p:note xsi:nil="true"/></p:order>',
    );
    expect(root.name).toBe('order');
    expect(root.children.map((c) => [c.name, c.text, c.nil])).toEqual([
      ['name', ' a <b> c ', false],
      ['note', '', true],
    ]);
  });
});

const Item = z.strictObject({
  name: z.string().min(1),
  quantity: z.int().min(1),
  price: z.number(),
  paid: z.boolean(),
  tier: z.enum(['free', 'pro']),
  note: z.string().nullable().optional(),
  tags: z.array(z.string()).max(3),
  address: z.strictObject({ street: z.string(), zip: z.string().optional() }).optional(),
  lines: z.array(z.strictObject({ sku: z.string(), count: z.int() })).optional(),
});

describe('an XML body is its JSON twin', () => {
  it('types text by the schema: numbers, booleans, nil, arrays and nested objects', () => {
    const xml = `<item xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <name>Ada &amp; Co</name><quantity> 3 </quantity><price>-1.5e2</price><paid>true</paid><tier>pro</tier>
      <note xsi:nil="true"/><tags><i>a</i><i> b </i></tags><address><street>Main</street></address>
      <lines><i><sku>x</sku><count>2</count></i></lines>
    </item>`;
    const value = valueOfXml(readXml(xml), Item);
    expect(value).toEqual({
      name: 'Ada & Co',
      quantity: 3,
      price: -150,
      paid: true,
      tier: 'pro',
      note: null,
      tags: ['a', ' b '],
      address: { street: 'Main' },
      lines: [{ sku: 'x', count: 2 }],
    });
    expect(Item.safeParse(value).success).toBe(true);
  });

  it('gives the schema the values that fail it as JSON would: the same issues at the same pointers', () => {
    const xml =
      '<item><name></name><quantity>1.5</quantity><price>0x10</price><paid>yes</paid><tier>gold</tier><tags><i>a</i><i>b</i><i>c</i><i>d</i></tags><bogus>1</bogus><address>Main St</address><name>again</name></item>';
    const json = {
      name: ['', 'again'],
      quantity: 1.5,
      price: '0x10',
      paid: 'yes',
      tier: 'gold',
      tags: ['a', 'b', 'c', 'd'],
      bogus: '1',
      address: 'Main St',
    };
    const fromXml = valueOfXml(readXml(xml), Item);
    expect(fromXml).toEqual(json);
    const issues = (value: unknown) => issuesOf(Item.safeParse(value).error!, 'body');
    expect(issues(fromXml)).toEqual(issues(json));
    expect(issues(fromXml).map((i) => i.pointer)).toEqual(['#/name', '#/quantity', '#/price', '#/paid', '#/tier', '#/tags', '#/address', '#/bogus']);
  });
});

/** Values an answer can hold: objects of identifier keys, arrays, strings (XML's characters), numbers, booleans, null. */
const answerValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '&', '<', '>', '"', "'", '\n', '\t', '\r', 'é', '€', '😀', ']]>') }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,6}$/).filter((k) => !k.startsWith('xml')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

describe('writing XML', () => {
  it('an independent parser reads back the JSON value, on generated answers', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/), answerValue, { maxKeys: 5 }), (value) => {
        const json = JSON.parse(JSON.stringify(value)) as unknown;
        expect(fromIndependentXml(xmlDocument('order', value), 'order', json)).toEqual(json);
      }),
      { numRuns: 300 },
    );
  });

  it('writes a problem as RFC 9457 Appendix B does: its namespace, arrays of <i>', () => {
    const text = problemXml({ type: 'about:blank', title: 'Bad Request', status: 400, errors: [{ pointer: '#/a', detail: 'x < y' }] });
    expect(text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<problem xmlns="urn:ietf:rfc:7807"><type>about:blank</type><title>Bad Request</title><status>400</status><errors><i><pointer>#/a</pointer><detail>x &lt; y</detail></i></errors></problem>',
    );
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(text) as { problem: Record<string, unknown> };
    expect(parsed.problem['@xmlns']).toBe('urn:ietf:rfc:7807');
  });

  it('writes characters XML 1.0 cannot hold as U+FFFD, and keeps a carriage return', () => {
    const text = xmlDocument('a', { s: 'a\u0001b\u0000c\rd\ud800' });
    expect(text).toContain('<s>a\ufffdb\ufffdc&#xD;d\ufffd</s>');
    expect(readXml(text).children[0]!.text).toBe('a\ufffdb\ufffdc\rd\ufffd');
  });

  it('reads back what it writes, by the schema', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.string({ minLength: 1 }),
          quantity: fc.integer({ min: 1 }),
          price: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
          paid: fc.boolean(),
          tier: fc.constantFrom('free', 'pro'),
          tags: fc.array(fc.string(), { maxLength: 3 }),
          note: fc.option(fc.string(), { nil: null }),
        }),
        (value) => {
          expect(valueOfXml(readXml(xmlDocument('item', value)), Item)).toEqual(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
