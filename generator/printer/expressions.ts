/**
 * @module Expressions to prettier documents, following prettier's rules for the shapes restgen emits:
 * objects (kept expanded when the source breaks after `{`), arrays (arrays of several multi-member
 * objects or arrays always break; number arrays fill), calls (the last object, array or arrow argument
 * hugs the parentheses), member chains (kept on one line up to two call groups; broken one call per line
 * when longer and an argument is not simple), arrows, and the layouts of `=` and `key:`.
 */
import { builders, utils } from 'prettier/doc';
import { isType, type Expr, type Prop, type Type } from './ast.ts';
import { printKey, printNumber, quoteString, textWidth } from './literals.ts';
import { isBrokenUnion, printType, printTypeArgs } from './types.ts';

type Doc = builders.Doc;
const { breakParent, conditionalGroup, fill, group, hardline, ifBreak, indent, indentIfBreak, join, line, lineSuffixBoundary, softline } = builders;
const { canBreak, willBreak } = utils;

/** A leaf expression (a name, a literal, raw source): the same text in every layout. */
export type Leaf = Extract<Expr, { k: 'id' | 'raw' | 'str' | 'num' | 'lit' | 'regex' }>;

/** The text of a leaf expression. */
export function leafText(node: Leaf): string {
  switch (node.k) {
    case 'id':
      return node.name;
    case 'raw':
    case 'lit':
      return node.text;
    case 'str':
      return quoteString(node.value);
    case 'num':
      return printNumber(node.value);
    case 'regex':
      return `/${node.pattern}/${node.flags}`;
  }
}

/** The document of an expression. */
export function printExpr(node: Expr): Doc {
  switch (node.k) {
    case 'id':
    case 'raw':
    case 'str':
    case 'num':
    case 'lit':
    case 'regex':
      return leafText(node);
    case 'member':
      return [printExpr(node.object), '.', node.name];
    case 'index':
      return [printExpr(node.object), printIndex(node.key)];
    case 'call':
      return printCall(node).doc;
    case 'obj':
      return printObject(node);
    case 'arr':
      return printArray(node.items);
    case 'arrow':
      return group(['() => ', node.body.k === 'obj' ? ['(', printExpr(node.body), ')'] : printExpr(node.body)]);
    case 'params':
      return node.items.length === 0 ? '()' : group(['(', indent([softline, join([',', line], [...node.items])]), ifBreak(','), softline, ')']);
    case 'specifiers':
      // Prettier never breaks a lone specifier, however long the line; two or more break one per line.
      if (node.names.length === 1) return `{ ${node.names[0]!} }`;
      return group(['{', indent([line, join([',', line], [...node.names])]), ifBreak(','), line, '}']);
  }
}

type Call = Extract<Expr, { k: 'call' }>;

/** `["key"]`: a computed member with a string key may break inside its brackets. */
function printIndex(key: string): Doc {
  return group(['[', indent([softline, quoteString(key)]), softline, ']']);
}

function printObject(node: Extract<Expr, { k: 'obj' }>): Doc {
  if (node.props.length === 0) return '{}';
  const props = node.props.map((p) => group(printProp(p)));
  return group(['{', indent([line, join([',', line], props)]), ifBreak(','), line, '}'], { shouldBreak: node.expanded });
}

function printProp(p: Prop): Doc {
  switch (p.k) {
    case 'spread':
      return ['...', printExpr(p.value)];
    case 'short':
      return p.name;
    case 'prop': {
      const doc = printAssignment(printKey(p.key), ':', p.value, true);
      return p.comment === undefined ? doc : [`/** ${p.comment.replace(/\*\//g, '*\\/')} */ `, doc];
    }
  }
}

const isObjOrArr = (x: Expr): x is Extract<Expr, { k: 'obj' | 'arr' }> => x.k === 'obj' || x.k === 'arr';
const sizeOf = (x: Extract<Expr, { k: 'obj' | 'arr' }>): number => (x.k === 'obj' ? x.props.length : x.items.length);
const isNumber = (x: Expr): boolean => x.k === 'num';

function printArray(items: readonly Expr[]): Doc {
  if (items.length === 0) return '[]';
  const shouldBreak = items.length > 1 && items.every((x, i) => isObjOrArr(x) && sizeOf(x) > 1 && (i === items.length - 1 || items[i + 1]!.k === x.k));
  if (items.every(isNumber)) {
    const id = Symbol('array');
    const parts: Doc[] = [];
    items.forEach((x, i) => {
      const last = i === items.length - 1;
      parts.push([printExpr(x), last ? ifBreak(',', '', { groupId: id }) : ',']);
      if (!last) parts.push(line);
    });
    return group(['[', indent([softline, fill(parts)]), softline, ']'], { shouldBreak, id });
  }
  return group(
    [
      '[',
      indent([
        softline,
        join(
          [',', line],
          items.map((x) => group(printExpr(x))),
        ),
        ifBreak(','),
      ]),
      softline,
      ']',
    ],
    { shouldBreak },
  );
}

// --- calls and member chains --------------------------------------------------------------

const isCall = (x: Expr): x is Call => x.k === 'call';
const isMemberish = (x: Expr): boolean => x.k === 'member' || x.k === 'index';

/** Prettier's "simple" call argument: literals, identifiers, and shallow objects, arrays and calls of them. */
function isSimpleArg(x: Expr, depth = 2): boolean {
  if (depth <= 0) return false;
  switch (x.k) {
    case 'regex':
      return textWidth(x.pattern) <= 5;
    case 'str':
    case 'num':
    case 'lit':
    case 'id':
      return true;
    case 'obj':
      return x.props.every((p) => p.k === 'short' || (p.k === 'prop' && isSimpleArg(p.value, depth - 1)));
    case 'arr':
      return x.items.every((i) => isSimpleArg(i, depth - 1));
    case 'call':
      return isSimpleArg(x.callee, depth) && x.args.length <= depth && x.args.every((a) => isSimpleArg(a, depth - 1));
    case 'member':
      return isSimpleArg(x.object, depth);
    case 'index':
      return isSimpleArg(x.object, depth);
    default:
      return false;
  }
}

/** Whether prettier may hug this last argument to the call's parentheses. */
function couldExpand(x: Expr): boolean {
  if (x.k === 'obj' || x.k === 'arr') return sizeOf(x) > 0;
  if (x.k === 'arrow') return x.body.k === 'obj' || x.body.k === 'arr' || x.body.k === 'call';
  return false;
}

function printArgs(node: Call): Doc {
  const args = node.args;
  if (args.length === 0) return '()';
  const printed = args.map((a, i) => (i === args.length - 1 ? printExpr(a) : [printExpr(a), ',', line]));
  const allBroken = (): Doc => group(['(', indent([line, ...printed]), ',', line, ')'], { shouldBreak: true });
  const last = args[args.length - 1]!;
  const before = args[args.length - 2];
  const hugLast =
    couldExpand(last) && (!before || before.k !== last.k) && !(args.length > 1 && last.k === 'arr' && last.items.length > 0 && last.items.every(isNumber));
  if (hugLast) {
    const head = printed.slice(0, -1);
    if (head.some(willBreak)) return allBroken();
    const lastDoc = printed[printed.length - 1]!;
    if (willBreak(lastDoc)) return [breakParent, conditionalGroup([['(', ...head, group(lastDoc, { shouldBreak: true }), ')'], allBroken()])];
    return conditionalGroup([['(', ...head, lastDoc, ')'], ['(', ...head, group(lastDoc, { shouldBreak: true }), ')'], allBroken()]);
  }
  return group(['(', indent([softline, ...printed]), ifBreak(','), softline, ')'], { shouldBreak: printed.some(willBreak) });
}

interface PrintedCall {
  readonly doc: Doc;
  /** Printed as a member chain of more groups than the cutoff (prettier labels it `member-chain`). */
  readonly memberChain: boolean;
}

function callTail(node: Call): Doc {
  return [node.typeArgs ? printTypeArgs(node.typeArgs) : '', printArgs(node)];
}

// A call is printed once: choosing an assignment's layout looks at the printed call, and nested calls
// would otherwise be printed again at every level.
const printedCalls = new WeakMap<Call, PrintedCall>();

function printCall(node: Call): PrintedCall {
  let printed = printedCalls.get(node);
  if (!printed) {
    if (!node.isNew && isMemberish(node.callee)) printed = printMemberChain(node);
    else {
      const doc: Doc = [node.isNew ? 'new ' : '', printExpr(node.callee), callTail(node)];
      printed = { doc: isCall(node.callee) ? group(doc) : doc, memberChain: false };
    }
    printedCalls.set(node, printed);
  }
  return printed;
}

const isFactory = (name: string): boolean => /^[A-Z]|^[$_]+$/.test(name);

/**
 * A member chain as prettier groups it: `a.b(x).c(y)` flattened into its links ([a, .b, (x), .c, (y)]: the
 * head, member accesses and call tails), then cut into groups (the first: the head with its calls and
 * the member accesses before the last one; then one group per member access and its calls). `merged`: the
 * second group stays on the first group's line (a short or factory-like head). Shared by the document
 * printer and the flat printer (`flat.ts`).
 */
export interface ChainShape {
  readonly groups: readonly (readonly Expr[])[];
  readonly merged: boolean;
  /** The chain's calls, in order. */
  readonly calls: readonly Call[];
  /** More groups than prettier keeps on one line without trying the broken layout (2, or 3 when merged). */
  readonly long: boolean;
}

export function chainShape(node: Call): ChainShape {
  const links: Expr[] = [];
  let at: Expr = node;
  for (;;) {
    if (isCall(at) && (isMemberish(at.callee) || isCall(at.callee))) {
      links.unshift(at);
      at = at.callee;
    } else if (at.k === 'member' || at.k === 'index') {
      links.unshift(at);
      at = at.object;
    } else {
      links.unshift(at);
      break;
    }
  }
  const groups: Expr[][] = [];
  let current: Expr[] = [links[0]!];
  let i = 1;
  for (; i < links.length && isCall(links[i]!); i++) current.push(links[i]!);
  if (!isCall(links[0]!)) for (; i + 1 < links.length && isMemberish(links[i]!) && isMemberish(links[i + 1]!); i++) current.push(links[i]!);
  groups.push(current);
  current = [];
  let seenCall = false;
  for (; i < links.length; i++) {
    const link = links[i]!;
    if (seenCall && isMemberish(link)) {
      groups.push(current);
      current = [];
      seenCall = false;
    }
    if (isCall(link)) seenCall = true;
    current.push(link);
  }
  if (current.length > 0) groups.push(current);
  const first = groups[0]!;
  const shouldNotWrap = (): boolean => {
    const hasComputed = groups[1]?.[0]?.k === 'index';
    if (first.length === 1) {
      const head = first[0]!;
      return head.k === 'id' && (isFactory(head.name) || hasComputed);
    }
    const lastOfFirst = first[first.length - 1]!;
    return lastOfFirst.k === 'member' && (isFactory(lastOfFirst.name) || hasComputed);
  };
  const merged = groups.length >= 2 && shouldNotWrap();
  return { groups, merged, calls: links.filter(isCall), long: groups.length > (merged ? 3 : 2) };
}

/**
 * Whether a long chain (see {@link ChainShape}) is broken one call per line whatever its width: more than two
 * calls and an argument that is not simple.
 */
export const breaksAlways = (shape: ChainShape): boolean => shape.calls.length > 2 && shape.calls.some((c) => !c.args.every((a) => isSimpleArg(a)));

/** The first link of the chain prints as an expression; the others as `.name`, `["key"]` or a call's tail. */
function printLink(link: Expr, index: number): Doc {
  if (index === 0) return printExpr(link);
  if (link.k === 'member') return ['.', link.name];
  if (link.k === 'index') return printIndex(link.key);
  return callTail(link as Call);
}

function printMemberChain(node: Call): PrintedCall {
  const shape = chainShape(node);
  const { groups, merged } = shape;
  let index = 0;
  const printedGroups: Doc[] = groups.map((g) => g.map((link) => printLink(link, index++)));
  const oneLine: Doc = printedGroups;
  if (!shape.long) return { doc: group(oneLine), memberChain: false };

  const rest = printedGroups.slice(merged ? 2 : 1);
  const expanded: Doc = [printedGroups[0]!, merged ? printedGroups[1]! : '', indent([hardline, join(hardline, rest)])];
  const lastGroupNode = groups[groups.length - 1]!.at(-1)!;
  const lastBreaksAfterFunctions =
    isCall(lastGroupNode) && willBreak(printedGroups[printedGroups.length - 1]!) && shape.calls.slice(0, -1).some((c) => c.args.some((a) => a.k === 'arrow'));
  if (breaksAlways(shape) || printedGroups.slice(0, -1).some(willBreak) || lastBreaksAfterFunctions) return { doc: group(expanded), memberChain: true };
  return { doc: [willBreak(oneLine) ? breakParent : '', conditionalGroup([oneLine, expanded])], memberChain: true };
}

// --- assignments ----------------------------------------------------------------------------

const LONE_SHORT = 80 * 0.25;

function isLoneShortArgument(x: Expr): boolean {
  switch (x.k) {
    case 'id':
      return x.name.length <= LONE_SHORT;
    case 'num':
    case 'lit':
      return true;
    case 'regex':
      return x.pattern.length <= LONE_SHORT;
    case 'str':
      return quoteString(x.value).length <= LONE_SHORT;
    case 'call':
      return x.args.length === 0 && x.callee.k === 'id' && x.callee.name.length <= LONE_SHORT - 2;
    default:
      return false;
  }
}

function hasComplexTypeArgs(node: Call): boolean {
  const args = node.typeArgs;
  if (!args || args.length === 0) return false;
  if (args.length > 1) return true;
  const only = args[0]!;
  return only.k === 'union' || only.k === 'inter' || only.k === 'tlit' || willBreak(printTypeArgs(args));
}

/** A chain of member accesses and calls without arguments or with one short one, which breaks poorly. */
function isPoorlyBreakableChain(x: Expr, deep = false): boolean {
  if (isCall(x)) {
    if (printCall(x).memberChain) return false;
    const poor = x.args.length === 0 || (x.args.length === 1 && isLoneShortArgument(x.args[0]!));
    if (!poor || hasComplexTypeArgs(x)) return false;
    return isPoorlyBreakableChain(x.callee, true);
  }
  if (x.k === 'member' || x.k === 'index') return isPoorlyBreakableChain(x.object, true);
  return deep && x.k === 'id';
}

type Layout = 'break-after-operator' | 'never-break-after-operator' | 'fluid';

function chooseLayout(left: Doc, right: Expr, isProperty: boolean): Layout {
  // Wrapping a property with a very short key gains little: its value stays beside it.
  const hasShortKey = isProperty && typeof left === 'string' && textWidth(left) < 2 + 3;
  if (!hasShortKey && (right.k === 'str' || isPoorlyBreakableChain(right))) return 'break-after-operator';
  // A negative number is a unary expression to prettier, not a numeric literal.
  const numeric = right.k === 'num' && right.value >= 0 && !Object.is(right.value, -0);
  if (!canBreak(left) && (hasShortKey || (right.k === 'lit' && right.text !== 'null') || numeric)) return 'never-break-after-operator';
  return 'fluid';
}

/**
 * `left op right` laid out as prettier's assignments and object properties are: `op` is ` =` or `:`;
 * `left` is a declaration's head, or a printed key when `isProperty`.
 */
export function printAssignment(left: Doc, op: string, right: Expr | Type, isProperty: boolean): Doc {
  const rightDoc = isType(right) ? printType(right, 'alias') : printExpr(right);
  // Prettier breaks after the operator for a union it does not hug; other types take the fluid layout.
  const layout = isType(right) ? (isBrokenUnion(right) ? 'break-after-operator' : 'fluid') : chooseLayout(left, right, isProperty);
  switch (layout) {
    case 'break-after-operator':
      return group([group(left), op, group(indent([line, rightDoc]))]);
    case 'never-break-after-operator':
      return group([group(left), op, ' ', rightDoc]);
    case 'fluid': {
      const id = Symbol('assignment');
      return group([group(left), op, group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(rightDoc, { groupId: id })]);
    }
  }
}
