/**
 * @module The small syntax tree restgen's printer lays out: the expressions and types that generated code
 * contains and that can outgrow a line (zod chains, object and array literals, calls, unions, type
 * arguments, parameter lists). View builders construct these nodes; templates place them with `{{fmt x}}`;
 * `print-line.ts` lays them out exactly as prettier would. Plain data with a `k` discriminant.
 */

/** An expression. */
export type Expr =
  | { readonly k: 'id'; readonly name: string }
  | { readonly k: 'str'; readonly value: string }
  | { readonly k: 'num'; readonly value: number }
  | { readonly k: 'lit'; readonly text: 'true' | 'false' | 'null' }
  | { readonly k: 'regex'; readonly pattern: string; readonly flags: string }
  | { readonly k: 'member'; readonly object: Expr; readonly name: string }
  | { readonly k: 'index'; readonly object: Expr; readonly key: string }
  | { readonly k: 'call'; readonly callee: Expr; readonly args: readonly Expr[]; readonly typeArgs?: readonly Type[]; readonly isNew?: boolean }
  | { readonly k: 'obj'; readonly props: readonly Prop[]; readonly expanded: boolean }
  | { readonly k: 'arr'; readonly items: readonly Expr[] }
  | { readonly k: 'arrow'; readonly body: Expr }
  | { readonly k: 'params'; readonly items: readonly string[] }
  /** The `{ a, type B, c as d }` of an import or export declaration. */
  | { readonly k: 'specifiers'; readonly names: readonly string[] }
  | { readonly k: 'raw'; readonly text: string };

/** A member of an object literal: `key: value`, `...spread` or a shorthand `name`. */
export type Prop =
  | { readonly k: 'prop'; readonly key: string; readonly value: Expr; readonly comment?: string }
  | { readonly k: 'spread'; readonly value: Expr }
  | { readonly k: 'short'; readonly name: string };

/** A type. `ref` without arguments also stands for keywords (`string`, `never`, `null`). */
export type Type =
  | { readonly k: 'ref'; readonly name: string; readonly args?: readonly Type[] }
  | { readonly k: 'tstr'; readonly value: string }
  | { readonly k: 'union'; readonly types: readonly Type[] }
  | { readonly k: 'inter'; readonly types: readonly Type[] }
  | { readonly k: 'tlit'; readonly members: readonly TypeMember[]; readonly expanded: boolean }
  | { readonly k: 'tarr'; readonly elem: Type }
  | { readonly k: 'query'; readonly name: string }
  | { readonly k: 'mapped'; readonly readonly: boolean; readonly param: string; readonly in: Type; readonly type: Type }
  /** An interface's name and the one type it extends: `Name extends Base` (a declaration head, not a type). */
  | { readonly k: 'heritage'; readonly name: string; readonly base: Type };

/** A member of a type literal: a property or a method signature. */
export type TypeMember =
  | { readonly k: 'tprop'; readonly key: string; readonly type: Type; readonly optional?: boolean; readonly readonly?: boolean }
  | { readonly k: 'method'; readonly key: string; readonly params: readonly { readonly name: string; readonly type: Type }[]; readonly returns: Type };

/** A node the printer lays out. */
export type Node = Expr | Type;

/** Constructors, so view builders read like the code they describe. */
export const e = {
  id: (name: string): Expr => ({ k: 'id', name }),
  str: (value: string): Expr => ({ k: 'str', value }),
  num: (value: number): Expr => ({ k: 'num', value }),
  raw: (text: string): Expr => ({ k: 'raw', text }),
  regex: (pattern: string, flags = ''): Expr => ({ k: 'regex', pattern, flags }),
  /** `a.b.c` from a dotted path; each part an identifier. */
  path: (dotted: string): Expr => {
    const [head, ...rest] = dotted.split('.');
    return rest.reduce<Expr>((object, name) => ({ k: 'member', object, name }), { k: 'id', name: head! });
  },
  member: (object: Expr, name: string): Expr => ({ k: 'member', object, name }),
  /** `object.name`, or `object["name"]` when the name is not an identifier. */
  access: (object: Expr, name: string): Expr => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? { k: 'member', object, name } : { k: 'index', object, key: name }),
  /** `object.a(...).b(...)`: calls chained on `object`. */
  chain: (object: Expr, ...calls: readonly (readonly [string, ...Expr[]])[]): Expr =>
    calls.reduce<Expr>((acc, [name, ...args]) => ({ k: 'call', callee: { k: 'member', object: acc, name }, args }), object),
  call: (callee: Expr | string, args: readonly Expr[] = [], typeArgs?: readonly Type[]): Expr => ({
    k: 'call',
    callee: typeof callee === 'string' ? e.path(callee) : callee,
    args,
    ...(typeArgs ? { typeArgs } : {}),
  }),
  /** `new X(...)`. */
  construct: (callee: string, args: readonly Expr[]): Expr => ({ k: 'call', callee: e.path(callee), args, isNew: true }),
  /** An object literal; `expanded` when the source would have a newline after `{` (prettier keeps it broken). */
  obj: (props: readonly Prop[], expanded = false): Expr => ({ k: 'obj', props, expanded }),
  /** `key: value`; `comment` is a JSDoc text written before it on the same line. */
  prop: (key: string, value: Expr, comment?: string): Prop => (comment === undefined ? { k: 'prop', key, value } : { k: 'prop', key, value, comment }),
  spread: (value: Expr): Prop => ({ k: 'spread', value }),
  short: (name: string): Prop => ({ k: 'short', name }),
  arr: (items: readonly Expr[]): Expr => ({ k: 'arr', items }),
  arrow: (body: Expr): Expr => ({ k: 'arrow', body }),
  /** A parameter list `(a: A, b: B = {})`, each parameter as source. */
  params: (items: readonly string[]): Expr => ({ k: 'params', items }),
  /** The specifiers of an import or export declaration, each as source (`routes as $orders`, `type X`). */
  specifiers: (names: readonly string[]): Expr => ({ k: 'specifiers', names }),
  /** A JSON value as a literal (objects with quoted keys, as `JSON.stringify` writes them). */
  json: (value: unknown): Expr => jsonExpr(value),
};

/** Type constructors. */
export const t = {
  ref: (name: string, args?: readonly Type[]): Type => (args && args.length > 0 ? { k: 'ref', name, args } : { k: 'ref', name }),
  str: (value: string): Type => ({ k: 'tstr', value }),
  /** A union; one member stands for itself, none is `never`. */
  union: (types: readonly Type[]): Type => {
    // `A | B` joined with `C` is one union `A | B | C`, as the source text would parse.
    const flat = types.flatMap((x) => (x.k === 'union' ? x.types : [x]));
    return flat.length === 0 ? { k: 'ref', name: 'never' } : flat.length === 1 ? flat[0]! : { k: 'union', types: flat };
  },
  inter: (types: readonly Type[]): Type => (types.length === 1 ? types[0]! : { k: 'inter', types }),
  lit: (members: readonly TypeMember[], expanded = false): Type => ({ k: 'tlit', members, expanded }),
  prop: (key: string, type: Type, optional = false, readonly = false): TypeMember => ({ k: 'tprop', key, type, optional, readonly }),
  method: (key: string, params: readonly { name: string; type: Type }[], returns: Type): TypeMember => ({ k: 'method', key, params, returns }),
  array: (elem: Type): Type => ({ k: 'tarr', elem }),
  query: (name: string): Type => ({ k: 'query', name }),
  mapped: (param: string, constraint: Type, type: Type, readonly = false): Type => ({ k: 'mapped', readonly, param, in: constraint, type }),
  heritage: (name: string, base: Type): Type => ({ k: 'heritage', name, base }),
};

function jsonExpr(value: unknown): Expr {
  if (value === null) return { k: 'lit', text: 'null' };
  if (typeof value === 'boolean') return { k: 'lit', text: value ? 'true' : 'false' };
  if (typeof value === 'number') return { k: 'num', value };
  if (typeof value === 'string') return { k: 'str', value };
  if (Array.isArray(value)) return { k: 'arr', items: value.map(jsonExpr) };
  if (typeof value === 'object')
    return {
      k: 'obj',
      expanded: false,
      props: Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([key, v]) => ({ k: 'prop', key, value: jsonExpr(v) })),
    };
  throw new Error(`internal error: ${typeof value} is not a JSON value`);
}

/** True for the type nodes (the printer lays types and expressions out by different rules). */
export function isType(node: Node): node is Type {
  return (
    node.k === 'ref' ||
    node.k === 'tstr' ||
    node.k === 'union' ||
    node.k === 'inter' ||
    node.k === 'tlit' ||
    node.k === 'tarr' ||
    node.k === 'query' ||
    node.k === 'mapped' ||
    node.k === 'heritage'
  );
}
