/**
 * Writing an answer as XML: the JSON value the answer would be, element by element, the same mapping
 * `xml-value.ts` reads. A resource is a root element (`<order>`) whose members are child elements named after
 * its fields; an array's items are `<i>` elements (as RFC 9457 Appendix B writes a problem's arrays); `null`
 * is an empty element with `xsi:nil="true"`; numbers and booleans are their JSON text. A problem is
 * `<problem xmlns="urn:ietf:rfc:7807">` (RFC 9457 Appendix B). XML 1.0 cannot hold every character a JSON
 * string can: control characters other than tab, line feed and carriage return (and unpaired surrogates) are
 * written as U+FFFD; a client that needs them exactly asks for JSON.
 */
import { XSI } from './xml-read.js';

/** The element of an array's items. */
export const ITEM = 'i';
/** The namespace of a problem document (RFC 9457 Appendix B keeps RFC 7807's). */
export const PROBLEM_NAMESPACE = 'urn:ietf:rfc:7807';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** Characters XML 1.0 cannot hold (even as references), and unpaired surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
const UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPECIAL = /[&<>\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
/** An XML name without a colon (the names of fields are identifiers, which always are). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Text as element content: markup characters escaped, a carriage return kept as a reference. */
function escapeText(text: string): string {
  return text.replace(UNWRITABLE, '\ufffd').replace(SPECIAL, (c) => ESCAPES[c]!);
}

/** A member name as an element name: as it is when it is one (every field name is), else made one. */
function elementName(name: string): string {
  if (NAME.test(name) && !/^xml/i.test(name)) return name;
  const made = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(made) && !/^xml/i.test(made) ? made : `_${made}`;
}

/** Whether a value holds a null anywhere (then the root declares the `xsi` prefix). */
function hasNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (hasNull(v)) return true;
  return false;
}

function element(name: string, value: unknown, attributes: string, out: string[]): void {
  if (value === undefined) return;
  if (value === null) {
    out.push(`<${name}${attributes} xsi:nil="true"/>`);
    return;
  }
  if (Array.isArray(value)) {
    out.push(`<${name}${attributes}>`);
    for (const item of value) element(ITEM, item === undefined ? null : item, '', out);
    out.push(`</${name}>`);
    return;
  }
  if (typeof value === 'object') {
    out.push(`<${name}${attributes}>`);
    for (const [key, member] of Object.entries(value)) element(elementName(key), member, '', out);
    out.push(`</${name}>`);
    return;
  }
  const text = typeof value === 'string' ? escapeText(value) : String(value);
  out.push(text === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${text}</${name}>`);
}

/** The XML document of `value` under the root element `root` (in `namespace`, when given). */
export function xmlDocument(root: string, value: unknown, namespace?: string): string {
  const attributes = (namespace === undefined ? '' : ` xmlns="${namespace}"`) + (hasNull(value) ? ` xmlns:xsi="${XSI}"` : '');
  const out = [DECLARATION];
  element(elementName(root), value, attributes, out);
  return out.join('');
}

/** The XML document of an answer written as JSON text (what the JSON answer would carry). */
export function xmlOfJsonText(root: string, text: string): string {
  return xmlDocument(root, JSON.parse(text));
}

/** A problem (RFC 9457) as `application/problem+xml`. */
export function problemXml(problem: object): string {
  return xmlDocument('problem', problem, PROBLEM_NAMESPACE);
}
