/**
 * @module The zod emitter: per version, one file per collection (`vN/orders.ts`) with its resource,
 * create, replace, patch and list-query schemas, the list envelope and their inferred types; a barrel
 * `vN/schemas.ts` re-exporting them; and `zod-helpers.ts`, shared by every version.
 *
 * Output is kept compact and split on purpose: formatting costs seconds per MB, and a changed field should
 * reformat one file per version, not the whole version. Each collection has one map of field schemas, and
 * the request and response objects spread it and override only the fields that differ.
 */
import type { ApiAt, ApiIR, CollectionAt, FieldAt, LifecycleAt, OperationName, VersionIR } from '../../model/ir.ts';
import { kindOf } from '../../model/kinds.ts';
import { pascalCase } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { endpointRequestView, SECRET_ANSWERS, WITH_SECRET_DOC, withSecretName } from '../../model/webhook-endpoints.ts';
import { e, t, type Expr, type Prop, type Type } from '../../printer/ast.ts';
import { oneCollection, outputFile, templateFile } from '../file.ts';
import { runtimeFiles } from '../runtime-files.ts';
import { renderer, type EmitOptions, type OutputFile } from '../types.ts';
import { baseExpression, defaultArgument, filterExpression, hasObject, typeExpression } from './zod-expression.ts';

interface Member {
  readonly key: string;
  readonly expr: Expr;
  readonly doc: string | false;
}

/** The declarations of one collection's schemas, as syntax nodes the template places. */
interface CollectionView {
  readonly name: string;
  readonly typeName: string;
  readonly description: string | false;
  readonly route: string;
  readonly fieldsVar: string;
  readonly writeVar: string;
  /** The members of the fields map, each with its JSDoc. */
  readonly base: readonly Member[];
  /** `z.object({ ...fields, overrides })`: the resource as responses carry it. */
  readonly response: Expr;
  /** The answers that show the webhook endpoints' signing secret (`WebhookEndpointWithSecret`), or false. */
  readonly withSecret: { readonly name: string; readonly doc: string; readonly expr: Expr; readonly type: Type } | false;
  /** `{ ...fields, overrides }`: the fields as requests send them; null when no operation takes a body. */
  readonly write: Expr | null;
  /** The schemas of the operations the module offers; null for the others (see {@link schemaOps}). */
  readonly create: Expr | null;
  readonly replace: Expr | null;
  readonly patch: Expr | null;
  readonly listQuery: Expr | null;
  readonly list: Expr | null;
  /** Whether any of the body or list schemas is there (a blank line before them). */
  readonly hasSchemas: boolean;
  /** `z.infer<typeof X>` / `z.input<typeof X>` of each exported schema, and the replace type's alias. */
  readonly types: {
    readonly response: Type;
    readonly create: Type;
    readonly replace: Type;
    readonly patch: Type;
    readonly listQuery: Type;
    readonly list: Type;
  };
  /** Whether a filter reads a number from the query string (`queryNumber` is imported). */
  readonly numericFilters: boolean;
  /** `{ lifecycleState?, listLimit?, listPage?, queryNumber?, readOnly? }`: what the module imports of the zod helpers, or null for nothing. */
  readonly helpers: Expr | null;
  /** Whether the collection has a lifecycle (`lifecycleState` is imported for its state field). */
  readonly changedByTransitions: boolean;
  /** The input schema of each transition of the version. */
  readonly transitions: readonly TransitionView[];
}

/** A transition's input schema: `OrderCancelInput`. */
interface TransitionView {
  readonly name: string;
  readonly schema: string;
  readonly doc: string;
  /** The zod expression of the body (a strict object). */
  readonly expr: Expr;
  /** `z.input<typeof OrderCancelInput>`. */
  readonly type: Type;
}

/** The view model of `templates/zod/collection.hbs` (one collection in one version). */
export interface ZodCollectionView extends CollectionView {
  readonly title: string;
  readonly version: string;
  readonly lifecycle: string;
}

/** The view model of `templates/zod/schemas.hbs` (the barrel of one version). */
export interface ZodBarrelView {
  readonly title: string;
  readonly version: string;
  readonly lifecycle: string;
  readonly files: readonly string[];
}

function docOf(field: FieldAt): string | false {
  const parts = [field.description ?? '', field.deprecated ? '@deprecated' : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : false;
}

/** Describes a version's lifecycle for the file comment. */
export function lifecycleOf(v: VersionIR): string {
  if (!v.released) return 'unreleased: may still change';
  const parts = [`released ${v.released}`];
  if (v.deprecated) parts.push(`deprecated ${v.deprecated}`);
  if (v.sunset) parts.push(`sunset ${v.sunset}`);
  return parts.join(', ');
}

/** Whether list filters on a field of this type read numbers (`?quantity=3`). */
const isNumeric = (type: FieldAt['type']): boolean => ['integer', 'number'].includes(kindOf(type).wire);

const schemaType = (kind: 'infer' | 'input', name: string): Type => t.ref(`z.${kind}`, [t.query(name)]);

/** The name of a transition's input schema and type: `OrderCancelInput`. */
export function inputTypeName(c: CollectionAt, transition: string): string {
  return `${c.typeName}${pascalCase(transition)}Input`;
}

/** The write schema of a lifecycle's state field: read-only, with a message naming the transitions. */
function stateExpression(lc: LifecycleAt, route: string): Expr {
  const byTarget: Record<string, string[]> = {};
  for (const tr of lc.transitions) (byTarget[tr.to] ??= []).push(tr.name);
  return e.call('lifecycleState', [e.str(`${route}/{id}`), e.obj(Object.entries(byTarget).map(([state, names]) => e.prop(state, e.json(names))))]);
}

/**
 * The operations whose schemas a version's module holds: the version's own, and in the newest version also those
 * only older versions offer (handlers take their bodies in the newest version's shape).
 */
function schemaOps(api: ApiIR, c: CollectionAt, version: string): ReadonlySet<OperationName> {
  const ops = new Set<OperationName>(c.operations);
  if (version === api.versions.at(-1)?.name) for (const op of api.collections.find((x) => x.name === c.key)?.operations ?? []) ops.add(op.name);
  return ops;
}

function collectionView(api: ApiAt, c: CollectionAt, ops: ReadonlySet<OperationName>): CollectionView {
  // What requests may send: the built-in webhook endpoints carry request-only bounds (the same object otherwise).
  const req = endpointRequestView(api, c);
  const requestField = (f: FieldAt): FieldAt => req.fields.find((r) => r.name === f.name) ?? f;
  const lower = c.typeName[0]!.toLowerCase() + c.typeName.slice(1);
  const fieldsVar = `${lower}Fields`;
  const writeVar = `${lower}Write`;
  const fields = e.id(fieldsVar);
  const write = e.id(writeVar);
  const visible = c.fields.filter((f) => !f.writeOnly);
  const writable = c.fields.filter((f) => !f.readOnly);
  const prefix = api.versioning.in === 'path' ? `/${api.version.name}` : '';
  const spreadWith = (base: Expr, members: readonly Prop[]): Expr => e.obj([e.spread(base), ...members]);
  const T = c.typeName;
  const secretName = withSecretName(c);
  const hasBody = ops.has('create') || ops.has('replace') || ops.has('update');
  const numericFilters = ops.has('list') && c.fields.some((f) => f.filterable && isNumeric(f.type));
  const helpers = [
    ...(hasBody && c.lifecycle ? ['lifecycleState'] : []),
    ...(ops.has('list') ? ['listLimit', 'listPage'] : []),
    ...(numericFilters ? ['queryNumber'] : []),
    ...(hasBody && c.fields.some((f) => f.readOnly && c.lifecycle?.field !== f.name) ? ['readOnly'] : []),
  ];
  const body = e.call('z.strictObject', [
    spreadWith(
      write,
      writable
        .filter((f) => f.default || f.optional)
        .map((f) =>
          e.prop(
            f.name,
            f.default ? e.chain(e.access(write, f.name), ['default', defaultArgument(f.default.value)]) : e.chain(e.access(write, f.name), ['optional']),
          ),
        ),
    ),
  ]);
  return {
    name: c.name,
    typeName: T,
    description: c.description ?? false,
    route: `${prefix}/${c.path}`,
    fieldsVar,
    writeVar,
    base: visible.map((f) => ({ key: f.name, expr: baseExpression(f, 'response'), doc: docOf(f) })),
    response: e.call('z.object', [
      spreadWith(
        fields,
        visible.filter((f) => f.optional).map((f) => e.prop(f.name, e.chain(e.access(fields, f.name), ['optional']))),
      ),
    ]),
    withSecret:
      secretName === null
        ? false
        : {
            name: secretName,
            doc: WITH_SECRET_DOC,
            // The resource with the field's own (required) schema: plain kinds, which the runtime's checked writer reads.
            expr: e.chain(e.id(T), ['extend', e.obj([e.prop(SECRET_ANSWERS.field, e.access(fields, SECRET_ANSWERS.field))])]),
            type: schemaType('infer', secretName),
          },
    write: hasBody
      ? spreadWith(
          fields,
          c.fields
            .filter((f) => f.readOnly || f.writeOnly || hasObject(f.type) || requestField(f) !== f)
            .map((f) => {
              const doc = f.writeOnly ? docOf(f) : false;
              const state = c.lifecycle?.field === f.name ? stateExpression(c.lifecycle, `${prefix}/${c.path}`) : undefined;
              return e.prop(f.name, state ?? (f.readOnly ? e.id('readOnly') : baseExpression(requestField(f), 'request')), doc === false ? undefined : doc);
            }),
        )
      : null,
    create: ops.has('create') ? body : null,
    // Replace takes the same body as create.
    replace: ops.has('replace') ? (ops.has('create') ? e.id(`${T}Create`) : body) : null,
    patch: ops.has('update') ? e.chain(e.call('z.strictObject', [write]), ['partial']) : null,
    listQuery: ops.has('list')
      ? e.call('z.strictObject', [
          e.obj([
            e.prop('limit', e.call('listLimit', [e.num(c.pagination.defaultLimit), e.num(c.pagination.maxLimit)])),
            e.prop('cursor', e.chain(e.call('z.string'), ['min', e.num(1)], ['optional'])),
            ...c.fields.filter((f) => f.filterable).map((f) => e.prop(f.name, e.chain(filterExpression(f, e.access(fields, f.name)), ['optional']))),
          ]),
        ])
      : null,
    list: ops.has('list') ? e.call('listPage', [e.id(T)]) : null,
    types: {
      response: schemaType('infer', T),
      create: schemaType('input', `${T}Create`),
      replace: ops.has('create') ? t.ref(`${T}Create`) : schemaType('input', `${T}Replace`),
      patch: schemaType('input', `${T}Patch`),
      listQuery: schemaType('input', `${T}ListQuery`),
      list: schemaType('infer', `${T}List`),
    },
    numericFilters,
    hasSchemas: hasBody || ops.has('list'),
    helpers: helpers.length > 0 ? e.specifiers(helpers) : null,
    changedByTransitions: c.lifecycle !== undefined,
    transitions: (req.lifecycle?.transitions ?? []).map((tr) => ({
      name: tr.name,
      schema: inputTypeName(c, tr.name),
      doc: [
        `The body of \`POST ${prefix}/${c.path}/{id}:${tr.name}\` (${tr.from.join(', ')} → ${tr.to}).`,
        tr.description ?? '',
        'An empty body is read as `{}`.',
      ]
        .filter(Boolean)
        .join(' '),
      expr: typeExpression({ kind: 'object', fields: tr.input }, 'request'),
      type: schemaType('input', inputTypeName(c, tr.name)),
    })),
  };
}

/** What one collection's module of one version is generated from: the version with only that collection, and its operations. */
interface CollectionData {
  readonly at: ApiAt;
  readonly ops: readonly OperationName[];
}

const COLLECTION = renderer('zod collection', ({ at, ops }: CollectionData, use) =>
  use.template('zod/collection', {
    title: at.title,
    version: at.version.name,
    lifecycle: lifecycleOf(at.version),
    ...collectionView(at, at.collections[0]!, new Set(ops)),
  }),
);

/** Emits the zod schemas of every version, and the helpers they share. */
export function emitZod(api: ApiIR, options: EmitOptions): OutputFile[] {
  const files: OutputFile[] = runtimeFiles(options.runtime, 'zod/helpers.ts', 'zod-helpers.ts');
  for (const v of api.versions) {
    const at = project(api, v.name);
    for (const c of at.collections)
      files.push(outputFile(`${v.name}/${c.name}.ts`, COLLECTION, { at: oneCollection(at, c), ops: [...schemaOps(api, c, v.name)] }, options.render));
    const barrel: ZodBarrelView = { title: at.title, version: v.name, lifecycle: lifecycleOf(v), files: at.collections.map((c) => c.name) };
    files.push(templateFile(`${v.name}/schemas.ts`, 'zod/schemas', barrel, options.render));
  }
  return files;
}

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'zod/collection': ZodCollectionView;
    'zod/schemas': ZodBarrelView;
  }
}
