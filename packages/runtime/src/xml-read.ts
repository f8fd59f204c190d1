/**
 * Reading an XML request body into a tree of elements, hardened: a document type declaration (and with it
 * every entity besides XML's five and character references, the ground of XXE and entity expansion) is
 * refused, elements nest at most {@link XML_MAX_DEPTH} deep, attributes other than namespace declarations and
 * `xsi:nil` are refused, and the body's size is Fastify's `bodyLimit` (413 past it). The parser is saxes, a
 * strict, non-validating, streaming XML 1.0 parser that knows no external entities; any error it finds is a
 * 400 that says where. `xml-value.ts` turns the tree into the body's value by the route's schema.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';

/** The deepest nesting of elements a body may have. */
export const XML_MAX_DEPTH = 64;

/** XML Schema's instance namespace: `xsi:nil="true"` marks an element as null. */
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** One element of a body: its local name, its child elements, its text (character data and CDATA joined), and whether it is nil. */
export class XmlElement {
  readonly children: XmlElement[] = [];
  text = '';
  constructor(
    readonly name: string,
    readonly nil: boolean,
  ) {}
}

/** A body that is not well-formed XML or breaks a rule above; `answerError` answers it 400 with this message. */
export class XmlBodyError extends Error {
  readonly code = 'RESTGEN_INVALID_XML';
  readonly statusCode = 400;
}

/** A body that says it is in an encoding other than UTF-8 (the text was read as UTF-8): 415. */
export class XmlEncodingError extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
  readonly statusCode = 415;
}

/** Whether an attribute is `xsi:nil` set to true (`true` or `1`); any other attribute but a namespace declaration is refused. */
function nilOf(tag: SaxesTagNS, fail: (message: string) => never): boolean {
  let nil = false;
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.uri === XMLNS) continue;
    if (attribute.uri === XSI && attribute.local === 'nil') {
      const value = attribute.value.trim();
      if (value !== 'true' && value !== '1' && value !== 'false' && value !== '0') fail(`xsi:nil must be true or false (got ${JSON.stringify(value)})`);
      nil = value === 'true' || value === '1';
      continue;
    }
    fail(`<${tag.local}> has the attribute ${attribute.name}; values are elements, and only xsi:nil="true" is read`);
  }
  return nil;
}

/** The root element of an XML body, or throws {@link XmlBodyError} (400) or {@link XmlEncodingError} (415). */
export function readXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const where = () => `line ${parser.line}, column ${parser.column}`;
  const fail = (message: string): never => {
    throw new XmlBodyError(`The request body is not XML restgen reads (${where()}): ${message}.`);
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('xmldecl', (decl) => {
    if (decl.encoding !== undefined && !/^utf-?8$/i.test(decl.encoding))
      throw new XmlEncodingError(`XML is read as UTF-8 only (the declaration says ${decl.encoding})`);
  });
  parser.on('doctype', () => fail('a document type declaration (<!DOCTYPE ...>) is not allowed: no DTDs, no entities'));
  parser.on('opentag', (tag) => {
    if (stack.length >= XML_MAX_DEPTH) fail(`elements nest deeper than ${XML_MAX_DEPTH} levels`);
    const element = new XmlElement(tag.local, nilOf(tag, fail));
    stack.at(-1)?.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => {
    const element = stack.pop();
    if (stack.length === 0 && element) root = element;
  });
  const addText = (t: string) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('error', (error) => fail(error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '')));
  parser.write(text).close();
  if (root === null) return fail('there is no root element');
  return root;
}
