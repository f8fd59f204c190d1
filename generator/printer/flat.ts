/**
 * @module A node as prettier prints it on one line: the text of its document with every group flat, or
 * undefined when the document must break (an expanded object, an array of several multi-member objects, a
 * member chain broken one call per line). Most lines of generated code fit, and the layout stage takes this
 * text without building the node's document; a line that does not fit is printed from the document. The
 * rules mirror `expressions.ts` and `types.ts` one for one (test/format/flat-printer.test.ts holds the two to
 * the same text for arbitrary nodes).
 */
import { isType, type Expr, type Node, type Prop, type Type, type TypeMember } from './ast.ts';
import { breaksAlways, chainShape, leafText } from './expressions.ts';
import { printKey, quoteString } from './literals.ts';

type Call = Extract<Expr, { k: 'call' }>;

/** `node` on one line, or undefined when its document must break. */
export function flatNode(node: Node): string | undefined {
  return isType(node) ? flatType(node, false) : flatExpr(node);
}

/** Joins the flat texts of `nodes` with `separator`; undefined when one of them must break. */
function joined<T>(nodes: readonly T[], separator: string, flatOf: (node: T) => string | undefined): string | undefined {
  let out = '';
  for (let i = 0; i < nodes.length; i++) {
    const text = flatOf(nodes[i]!);
    if (text === undefined) return undefined;
    out += i === 0 ? text : separator + text;
  }
  return out;
}

function flatExpr(node: Expr): string | undefined {
  switch (node.k) {
    case 'id':
    case 'raw':
    case 'str':
    case 'num':
    case 'lit':
    case 'regex':
      return leafText(node);
    case 'member': {
      const object = flatExpr(node.object);
      return object === undefined ? undefined : `${object}.${node.name}`;
    }
    case 'index': {
      const object = flatExpr(node.object);
      return object === undefined ? undefined : `${object}[${quoteString(node.key)}]`;
    }
    case 'call':
      return flatCall(node);
    case 'obj': {
      if (node.props.length === 0) return '{}';
      if (node.expanded) return undefined;
      const props = joined(node.props, ', ', flatProp);
      return props === undefined ? undefined : `{ ${props} }`;
    }
    case 'arr': {
      const { items } = node;
      if (items.length === 0) return '[]';
      const sizeOf = (x: Expr): number => (x.k === 'obj' ? x.props.length : x.k === 'arr' ? x.items.length : 0);
      if (items.length > 1 && items.every((x, i) => (x.k === 'obj' || x.k === 'arr') && sizeOf(x) > 1 && (i === items.length - 1 || items[i + 1]!.k === x.k)))
        return undefined;
      const text = joined(items, ', ', flatExpr);
      return text === undefined ? undefined : `[${text}]`;
    }
    case 'arrow': {
      const body = flatExpr(node.body);
      if (body === undefined) return undefined;
      return node.body.k === 'obj' ? `() => (${body})` : `() => ${body}`;
    }
    case 'params':
      return `(${node.items.join(', ')})`;
    case 'specifiers':
      return `{ ${node.names.join(', ')} }`;
  }
}

function flatProp(p: Prop): string | undefined {
  switch (p.k) {
    case 'spread': {
      const value = flatExpr(p.value);
      return value === undefined ? undefined : `...${value}`;
    }
    case 'short':
      return p.name;
    case 'prop': {
      const value = flatExpr(p.value);
      if (value === undefined) return undefined;
      const text = `${printKey(p.key)}: ${value}`;
      return p.comment === undefined ? text : `/** ${p.comment.replace(/\*\//g, '*\\/')} */ ${text}`;
    }
  }
}

/** `<A, B>(a, b)`: a call's type arguments and arguments. */
function flatTail(node: Call): string | undefined {
  const typeArgs = node.typeArgs ? joined(node.typeArgs, ', ', (x) => flatType(x, false)) : '';
  if (typeArgs === undefined) return undefined;
  const args = joined(node.args, ', ', flatExpr);
  if (args === undefined) return undefined;
  return `${node.typeArgs ? `<${typeArgs}>` : ''}(${args})`;
}

function flatCall(node: Call): string | undefined {
  if (node.isNew || (node.callee.k !== 'member' && node.callee.k !== 'index')) {
    const callee = flatExpr(node.callee);
    const tail = flatTail(node);
    return callee === undefined || tail === undefined ? undefined : `${node.isNew ? 'new ' : ''}${callee}${tail}`;
  }
  const shape = chainShape(node);
  if (shape.long && breaksAlways(shape)) return undefined;
  let out = '';
  let first = true;
  for (const group of shape.groups)
    for (const link of group) {
      let text: string | undefined;
      if (first) text = flatExpr(link);
      else if (link.k === 'member') text = `.${link.name}`;
      else if (link.k === 'index') text = `[${quoteString(link.key)}]`;
      else text = flatTail(link as Call);
      if (text === undefined) return undefined;
      out += text;
      first = false;
    }
  return out;
}

/** A type on one line; `arrayElem`: as an array type's element (a union is parenthesised there). */
function flatType(node: Type, arrayElem: boolean): string | undefined {
  switch (node.k) {
    case 'ref': {
      if (!node.args) return node.name;
      const args = joined(node.args, ', ', (x) => flatType(x, false));
      return args === undefined ? undefined : `${node.name}<${args}>`;
    }
    case 'tstr':
      return quoteString(node.value);
    case 'query':
      return `typeof ${node.name}`;
    case 'tarr': {
      const elem = flatType(node.elem, true);
      return elem === undefined ? undefined : `${elem}[]`;
    }
    case 'union': {
      const text = joined(node.types, ' | ', (x) => flatType(x, false));
      return text === undefined ? undefined : arrayElem ? `(${text})` : text;
    }
    case 'inter':
      return joined(node.types, ' & ', (x) => flatType(x, false));
    case 'tlit': {
      if (node.members.length === 0) return '{}';
      if (node.expanded) return undefined;
      const members = joined(node.members, '; ', flatMember);
      return members === undefined ? undefined : `{ ${members} }`;
    }
    case 'heritage': {
      const base = flatType(node.base, false);
      return base === undefined ? undefined : `${node.name} extends ${base}`;
    }
    case 'mapped': {
      const constraint = flatType(node.in, false);
      const type = flatType(node.type, false);
      if (constraint === undefined || type === undefined) return undefined;
      return `{ ${node.readonly ? 'readonly ' : ''}[${node.param} in ${constraint}]: ${type} }`;
    }
  }
}

function flatMember(m: TypeMember): string | undefined {
  if (m.k === 'tprop') {
    const type = flatType(m.type, false);
    return type === undefined ? undefined : `${m.readonly ? 'readonly ' : ''}${printKey(m.key)}${m.optional ? '?' : ''}: ${type}`;
  }
  const params = joined(m.params, ', ', (p) => {
    const type = flatType(p.type, false);
    return type === undefined ? undefined : `${p.name}: ${type}`;
  });
  const returns = flatType(m.returns, false);
  return params === undefined || returns === undefined ? undefined : `${printKey(m.key)}(${params}): ${returns}`;
}
