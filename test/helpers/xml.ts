/**
 * @module Test helper: an XML answer read by an independent parser (fast-xml-parser, not the saxes reader the
 * runtime uses for bodies), into the JSON value it stands for. XML text does not say which element is an array
 * and which text a number, so the JSON value expected guides that (`like`): each element must then hold what
 * the mapping writes for it (an array's items as `<i>` elements, `xsi:nil="true"` for null, a number's JSON
 * text), and anything else comes out as it was read, and fails the comparison.
 */
import { XMLParser } from 'fast-xml-parser';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  isArray: (name) => name === 'i',
});

type Node = string | { readonly [name: string]: Node | readonly Node[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The element `node` as the JSON value shaped like `like`. */
function valueOfNode(node: Node | readonly Node[] | undefined, like: unknown): unknown {
  if (node === undefined) return undefined;
  if (isObject(node) && node['@xsi:nil'] === 'true') return null;
  if (Array.isArray(like)) {
    if (node === '') return [];
    const items = isObject(node) ? (node['i'] as readonly Node[] | undefined) : undefined;
    return items === undefined ? node : items.map((item, i) => valueOfNode(item, like[i]));
  }
  if (isObject(like)) {
    if (node === '') return {};
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node)) {
      if (name.startsWith('@')) continue;
      // The parser reads every <i> as an array's item; a member called `i` is one element.
      const one = name === 'i' && Array.isArray(child) && child.length === 1 ? (child[0] as Node) : (child as Node);
      out[name] = valueOfNode(one, like[name]);
    }
    return out;
  }
  if (typeof node !== 'string') return node;
  if (typeof like === 'number') return Number(node);
  if (typeof like === 'boolean') return node === 'true' ? true : node === 'false' ? false : node;
  return node;
}

/** The value of the XML document `text`, whose root element must be `root`, shaped like `like` (by default, the value the caller expects). */
export function fromIndependentXml(text: string, root: string, like?: unknown): unknown {
  const parsed = parser.parse(text) as Record<string, Node>;
  const names = Object.keys(parsed);
  if (names.length !== 1 || names[0] !== root) throw new Error(`expected the root element <${root}>, got ${names.join(', ')}`);
  return valueOfNode(parsed[root], like);
}
