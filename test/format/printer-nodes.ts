/**
 * Arbitrary expressions and types of restgen's printer (`generator/printer/ast.ts`), for the property tests that
 * hold its shortcuts (the flat printer, the document printer) to the documents and the printer they stand for:
 * names, keys and strings of every kind the printer treats apart (quotes, line breaks, non-ASCII, long ones),
 * calls with type arguments, member chains, objects and arrays (expanded, of objects, of numbers), unions, type
 * literals, mapped types.
 */
import fc from 'fast-check';
import { e, t, type Expr, type Prop, type Type, type TypeMember } from '../../generator/printer/ast.ts';

const name = fc.constantFrom('z', 'a', 'Foo', '$', '_', 'orders', 'Schema', 'listLimit', 'x_y', 'V3', 'aVeryLongIdentifierNameToFillTheLine');
const key = fc.constantFrom('id', 'name', 'a-b', '1', 'créé', 'ab', 'longerPropertyName', 'x');
const text = fc.constantFrom('', 'hi', 'a "quoted" word', "it's", 'line\nbreak', 'ünïcode', 'x'.repeat(30));

export const { expr, type } = fc.letrec<{ expr: Expr; type: Type; prop: Prop; member: TypeMember }>((tie) => {
  const exprs = () => tie('expr') as fc.Arbitrary<Expr>;
  const types = () => tie('type') as fc.Arbitrary<Type>;
  return {
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      name.map(e.id),
      text.map(e.str),
      fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.constantFrom(0.5, 1e21, -0)).map(e.num),
      fc.constantFrom('true', 'false', 'null').map((x) => ({ k: 'lit', text: x }) as Expr),
      fc.constantFrom('^\\d{5}$', 'a', '[a-z]+').map((p) => e.regex(p)),
      fc.tuple(exprs(), name).map(([object, n]) => e.member(object, n)),
      fc.tuple(exprs(), key).map(([object, k]) => ({ k: 'index', object, key: k }) as Expr),
      fc
        .tuple(exprs(), fc.array(exprs(), { maxLength: 3 }), fc.option(fc.array(types(), { maxLength: 2 }), { nil: undefined }), fc.boolean())
        .map(([callee, args, typeArgs, isNew]) => ({ k: 'call', callee, args, ...(typeArgs ? { typeArgs } : {}), ...(isNew ? { isNew } : {}) }) as Expr),
      fc
        .tuple(exprs(), fc.array(fc.tuple(name, fc.array(exprs(), { maxLength: 2 })), { minLength: 1, maxLength: 4 }))
        .map(([object, calls]) => e.chain(object, ...calls.map(([n, args]) => [n, ...args] as const))),
      fc.tuple(fc.array(tie('prop') as fc.Arbitrary<Prop>, { maxLength: 4 }), fc.boolean()).map(([props, expanded]) => e.obj(props, expanded)),
      fc.array(exprs(), { maxLength: 4 }).map(e.arr),
      // Arrays of objects and arrays of two or more members: prettier breaks them when they follow one another.
      fc
        .array(
          fc.oneof(
            fc.array(tie('prop') as fc.Arbitrary<Prop>, { minLength: 1, maxLength: 3 }).map((props) => e.obj(props)),
            fc.array(exprs(), { minLength: 1, maxLength: 3 }).map(e.arr),
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map(e.arr),
      fc.array(fc.integer({ min: 0, max: 99_999 }).map(e.num), { minLength: 1, maxLength: 40 }).map(e.arr),
      exprs().map(e.arrow),
      fc.array(fc.constantFrom('a: A', 'b: B = {}', 'options?: Options'), { maxLength: 3 }).map(e.params),
      fc.array(fc.constantFrom('a', 'type B', 'c as d'), { maxLength: 3 }).map(e.specifiers),
      fc.constantFrom('undefined as never', '$.x').map(e.raw),
    ),
    prop: fc.oneof(
      fc.tuple(key, exprs(), fc.option(fc.constantFrom('a note', 'ends */ here'), { nil: undefined })).map(([k, v, c]) => e.prop(k, v, c)),
      exprs().map(e.spread),
      name.map(e.short),
    ),
    type: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('string', 'number', 'null', 'Order', 'z.output').map((n) => t.ref(n)),
      fc.tuple(name, fc.array(types(), { minLength: 1, maxLength: 3 })).map(([n, args]) => t.ref(n, args)),
      text.map(t.str),
      fc.array(types(), { maxLength: 4 }).map(t.union),
      fc.array(types(), { minLength: 1, maxLength: 3 }).map(t.inter),
      fc.tuple(fc.array(tie('member') as fc.Arbitrary<TypeMember>, { maxLength: 3 }), fc.boolean()).map(([members, expanded]) => t.lit(members, expanded)),
      types().map(t.array),
      name.map(t.query),
      fc.tuple(types(), types(), fc.boolean()).map(([constraint, x, readonly]) => t.mapped('K', constraint, x, readonly)),
      fc.tuple(name, types()).map(([n, base]) => t.heritage(n, base)),
    ),
    member: fc.oneof(
      fc.tuple(key, types(), fc.boolean(), fc.boolean()).map(([k, x, optional, readonly]) => t.prop(k, x, optional, readonly)),
      fc.tuple(key, fc.array(fc.tuple(name, types()), { maxLength: 2 }), types()).map(([k, params, returns]) =>
        t.method(
          k,
          params.map(([n, x]) => ({ name: n, type: x })),
          returns,
        ),
      ),
    ),
  };
});
