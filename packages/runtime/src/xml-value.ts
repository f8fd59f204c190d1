/**
 * An XML body as the value its JSON twin would be, read by the route's schema, so that the same zod schema
 * checks it with the same errors at the same pointers. The mapping (the XML guide documents it):
 * - the root element stands for the body (its name is not read); an object's members are child elements named
 *   after its fields, in any order;
 * - an array is an element whose children (`<i>`, by any name) are its items;
 * - a string is the element's text as written (whitespace kept), CDATA included; an empty element is `""`;
 * - a number or integer is the text trimmed, read when it is a JSON number (`-1.5e3`); a boolean is `true` or
 *   `false`; any other text stays a string, which the schema then refuses as it refuses a JSON string there;
 * - `xsi:nil="true"` is `null`; an element left out is a member left out;
 * - an element the schema does not know is read as text (or as an object of its children), so that the
 *   schema reports it as an unknown field, and an element given twice as an array of both, which no field
 *   but an array accepts.
 */
import type { z } from 'zod';
import type * as core from 'zod/v4/core';
import { XmlElement } from './xml-read.js';
import { defOf } from './zod-internals.js';

/** How the value of one element is read. */
type Reader = (element: XmlElement) => unknown;

const BLANK = /^\s*$/;
/** JSON's number grammar: what `JSON.parse` reads as a number. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An element read without a schema: text, or an object of its children (a name given twice, an array). */
function loose(element: XmlElement): unknown {
  if (element.nil) return null;
  if (element.children.length === 0) return element.text;
  if (!BLANK.test(element.text)) return element.text;
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const child of element.children) add(out, child.name, loose(child), seen);
  return out;
}

/** Sets a member, or makes it an array of every value when the name comes again. */
function add(out: Record<string, unknown>, name: string, value: unknown, seen?: Set<string>): void {
  // Own keys only: an element may be called `constructor` or `__proto__`.
  if (!Object.hasOwn(out, name)) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    return;
  }
  const current = out[name];
  if (seen?.has(name)) (current as unknown[]).push(value);
  else {
    out[name] = [current, value];
    seen?.add(name);
  }
}

/** The schema a wrapper (optional, nullable, default, readonly, pipe's input) stands for. */
function unwrap(schema: core.$ZodType): core.$ZodType {
  let at = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(at);
    const inner: core.$ZodType | undefined = 'innerType' in def ? def.innerType : def.type === 'pipe' ? def.in : undefined;
    if (inner === undefined) return at;
    at = inner;
  }
  return at;
}

function compile(schema: core.$ZodType, depth: number): Reader {
  // A schema nested deeper than any body may be (a recursive one) is read loosely.
  if (depth > 64) return loose;
  const target = unwrap(schema);
  const def = defOf(target);
  const nil =
    (read: Reader): Reader =>
    (element) =>
      element.nil ? null : read(element);
  switch (def.type) {
    case 'object': {
      const members = new Map<string, Reader>();
      const shape = def.shape;
      const memberOf = (name: string): Reader => {
        let read = members.get(name);
        if (read === undefined && Object.hasOwn(shape, name)) members.set(name, (read = compile(shape[name]!, depth + 1)));
        return read ?? loose;
      };
      return nil((element) => {
        if (element.children.length === 0 && !BLANK.test(element.text)) return element.text;
        const out: Record<string, unknown> = {};
        const seen = new Set<string>();
        for (const child of element.children) add(out, child.name, memberOf(child.name)(child), seen);
        return out;
      });
    }
    case 'array': {
      const item = compile(def.element, depth + 1);
      return nil((element) => (element.children.length === 0 && !BLANK.test(element.text) ? element.text : element.children.map(item)));
    }
    case 'number':
      return nil((element) => {
        if (element.children.length > 0) return loose(element);
        const text = element.text.trim();
        return JSON_NUMBER.test(text) ? Number(text) : element.text;
      });
    case 'boolean':
      return nil((element) => {
        if (element.children.length > 0) return loose(element);
        const text = element.text.trim();
        return text === 'true' ? true : text === 'false' ? false : element.text;
      });
    default:
      // Strings, enums, literals, and what no body holds as such (a file, a read-only field): the text.
      return loose;
  }
}

const READERS = new WeakMap<object, Reader>();

/** The value of an XML body (its root element) for `schema`, as a JSON body with the same content would be. */
export function valueOfXml(root: XmlElement, schema: z.ZodType): unknown {
  let read = READERS.get(schema);
  if (read === undefined) READERS.set(schema, (read = compile(schema, 0)));
  return read(root);
}

/** Whether a parsed request body is an XML document (the XML parser's root element). */
export const isXmlBody = (body: unknown): body is XmlElement => body instanceof XmlElement;
