/**
 * @module Types to prettier documents, following prettier's rules for the type shapes restgen emits:
 * references with type arguments (one simple argument stays inline, otherwise they break one per line
 * without a trailing comma), unions (broken with a leading `|` per member, indented except as a type
 * argument; `X | null` hugs), intersections, type literals (`;`-separated), array types, `typeof` and
 * mapped types.
 */
import { builders, utils } from 'prettier/doc';
import type { Type, TypeMember } from './ast.ts';
import { printKey, quoteString } from './literals.ts';

type Doc = builders.Doc;
const { align, group, ifBreak, indent, join, line, softline } = builders;

/**
 * Where a type stands; unions lay out differently as a type argument, as an array's element, as an
 * annotation and after an assignment's ` =` (`alias`, where the assignment does the indenting).
 */
export type TypeContext = 'alias' | 'annotation' | 'typeArg' | 'arrayElem';

const KEYWORDS = new Set(['string', 'number', 'boolean', 'never', 'unknown', 'any', 'void', 'null', 'undefined', 'object', 'bigint', 'symbol']);
const isObjectType = (x: Type): boolean => x.k === 'tlit' || x.k === 'mapped';
const isSimpleType = (x: Type): boolean => x.k === 'ref' && !x.args;
const isVoidType = (x: Type): boolean => x.k === 'ref' && (x.name === 'null' || x.name === 'void');
const isObjectLike = (x: Type): boolean => x.k === 'tlit' || (x.k === 'ref' && !KEYWORDS.has(x.name));

function shouldHugUnion(types: readonly Type[]): boolean {
  const object = types.find(isObjectLike);
  return object !== undefined && types.every((x) => x === object || isVoidType(x));
}

/** Prettier's `shouldHugType`: printed without breaking around it as a lone type argument. */
function shouldHugType(x: Type): boolean {
  return isSimpleType(x) || isObjectType(x) || (x.k === 'union' && shouldHugUnion(x.types));
}

/** `<A, B>` as prettier prints type arguments. */
export function printTypeArgs(args: readonly Type[]): Doc {
  if (args.length === 1 && shouldHugType(args[0]!)) return ['<', printType(args[0]!, 'typeArg'), '>'];
  return group([
    '<',
    indent([
      softline,
      join(
        [',', line],
        args.map((a) => printType(a, 'typeArg')),
      ),
    ]),
    softline,
    '>',
  ]);
}

/** The document of a type standing in `context`. */
export function printType(node: Type, context: TypeContext = 'annotation'): Doc {
  switch (node.k) {
    case 'ref':
      return node.args ? [node.name, printTypeArgs(node.args)] : node.name;
    case 'tstr':
      return quoteString(node.value);
    case 'query':
      return `typeof ${node.name}`;
    case 'tarr':
      return [printType(node.elem, 'arrayElem'), '[]'];
    case 'union':
      return printUnion(node.types, context);
    case 'inter':
      return printIntersection(node.types);
    case 'tlit':
      return printTypeLiteral(node.members, node.expanded);
    case 'heritage':
      return group(indent([node.name, line, 'extends ', printType(node.base)]));
    case 'mapped':
      return group([
        '{',
        indent([line, group([node.readonly ? 'readonly ' : '', '[', node.param, ' in ', printType(node.in), ']: ', printType(node.type)]), ifBreak(';')]),
        line,
        '}',
      ]);
  }
}

/**
 * Prettier 3's union: hugged (`{ ... } | null`) it is joined by ` | `; otherwise its members form one group
 * (`| ` before the first only when it breaks), which as an annotation is indented after a soft line break, so
 * a union that does not fit after `key: ` first moves to the next line whole and breaks there only if it
 * still does not fit. As a type argument it is not indented; as an array's element it is parenthesised;
 * after an assignment's ` =` the assignment breaks the line (see `printAssignment`).
 */
function printUnion(types: readonly Type[], context: TypeContext): Doc {
  if (shouldHugUnion(types)) {
    const hugged = join(
      ' | ',
      types.map((x) => printType(x)),
    );
    return context === 'arrayElem' ? ['(', hugged, ')'] : hugged;
  }
  const code = group(types.map((x, i) => [i === 0 ? ifBreak('| ') : [line, '| '], align(2, printType(x))]));
  switch (context) {
    case 'arrayElem':
      return ['(', group([indent([softline, code]), softline]), ')'];
    case 'typeArg':
    case 'alias':
      return code;
    case 'annotation':
      return group(indent([softline, code]));
  }
}

/** True for a union prettier does not hug: after ` =` it breaks the line after the operator. */
export function isBrokenUnion(x: Type): boolean {
  return x.k === 'union' && !shouldHugUnion(x.types);
}

function printIntersection(types: readonly Type[]): Doc {
  const parts: Doc[] = [];
  let wasIndented = false;
  types.forEach((x, i) => {
    const doc = printType(x);
    if (i === 0) parts.push(doc);
    else if (isObjectType(types[i - 1]!) && isObjectType(x)) parts.push([' & ', wasIndented ? indent(doc) : doc]);
    else if (!isObjectType(types[i - 1]!) && !isObjectType(x)) parts.push(indent([' &', line, doc]));
    else {
      if (i > 1) wasIndented = true;
      parts.push(' & ', i > 1 ? indent(doc) : doc);
    }
  });
  return group(parts);
}

function printMember(m: TypeMember): Doc {
  if (m.k === 'tprop') return [m.readonly ? 'readonly ' : '', printKey(m.key), m.optional ? '?' : '', ': ', printType(m.type)];
  const params = m.params.map((p) => [p.name, ': ', printType(p.type)]);
  const returns = printType(m.returns);
  const list = ['(', indent([softline, join([',', line], params)]), ifBreak(','), softline, ')'];
  // Prettier keeps the parameters apart (a group of their own) only for one parameter before an object type or a
  // return type that breaks anyway; otherwise they break first: `value(\n  order: X,\n): string | undefined`.
  const grouped = m.params.length === 1 && (isObjectType(m.returns) || utils.willBreak(returns));
  return [printKey(m.key), group([grouped ? group(list) : list, ': ', returns])];
}

function printTypeLiteral(members: readonly TypeMember[], expanded: boolean): Doc {
  if (members.length === 0) return '{}';
  return group(
    [
      '{',
      indent([
        line,
        join(
          [';', line],
          members.map((m) => group(printMember(m))),
        ),
      ]),
      ifBreak(';'),
      line,
      '}',
    ],
    { shouldBreak: expanded },
  );
}
