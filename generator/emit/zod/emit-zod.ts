/**
 * @module The zod emitter: per version, one file per collection (`vN/orders.ts`) with its resource,
 * create, replace, patch and list-query schemas, the list envelope and their inferred types; a barrel
 * `vN/schemas.ts` re-exporting them; and `zod-helpers.ts`, shared by every version.
 *
 * Output is kept compact and split on purpose: formatting costs seconds per MB, and a changed field should
 * reformat one file per version, not the whole version. Each collection has one map of field schemas, and
 * the request and response objects spread it and override only the fields that differ.
 */
import type { ApiAt, ApiIR, CollectionAt, FieldAt, LifecycleAt, VersionIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { runtimeFiles } from '../runtime-files.ts';
import type { EmitOptions, OutputFile } from '../types.ts';
import { baseExpression, defaultArgument, filterExpression, hasObject, propertyKey, typeExpression } from './zod-expression.ts';

interface Member {
  readonly key: string;
  readonly expr: string;
  readonly doc: string | false;
}

interface CollectionView {
  readonly name: string;
  readonly typeName: string;
  readonly description: string | false;
  readonly route: string;
  readonly fieldsVar: string;
  readonly writeVar: string;
  readonly base: readonly Member[];
  readonly responseOverrides: readonly Member[];
  readonly writeOverrides: readonly Member[];
  readonly createOverrides: readonly Member[];
  readonly filters: readonly Member[];
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** Whether a filter reads a number from the query string (`queryNumber` is imported). */
  readonly numericFilters: boolean;
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
  readonly expr: string;
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

/** `refVar.name`, or `refVar["odd-name"]` when the name is not an identifier. */
function access(refVar: string, name: string): string {
  const key = propertyKey(name);
  return key === name ? `${refVar}.${name}` : `${refVar}[${key}]`;
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

/** The name of a transition's input schema and type: `OrderCancelInput`. */
export function inputTypeName(c: CollectionAt, transition: string): string {
  return `${c.typeName}${pascalCase(transition)}Input`;
}

/** The write schema of a lifecycle's state field: read-only, with a message naming the transitions. */
function stateExpression(lc: LifecycleAt, route: string): string {
  const byTarget: Record<string, string[]> = {};
  for (const t of lc.transitions) (byTarget[t.to] ??= []).push(t.name);
  const entries = Object.entries(byTarget).map(([state, names]) => `${propertyKey(state)}: [${names.map((n) => JSON.stringify(n)).join(', ')}]`);
  return `lifecycleState(${JSON.stringify(`${route}/{id}`)}, { ${entries.join(', ')} })`;
}

function collectionView(api: ApiAt, c: CollectionAt): CollectionView {
  const lower = c.typeName[0]!.toLowerCase() + c.typeName.slice(1);
  const fieldsVar = `${lower}Fields`;
  const writeVar = `${lower}Write`;
  const member = (f: FieldAt, expr: string, doc: string | false = false): Member => ({ key: propertyKey(f.name), expr, doc });
  const visible = c.fields.filter((f) => !f.writeOnly);
  const writable = c.fields.filter((f) => !f.readOnly);
  const prefix = api.versioning.in === 'path' ? `/${api.version.name}` : '';
  return {
    name: c.name,
    typeName: c.typeName,
    description: c.description ?? false,
    route: `${prefix}/${c.path}`,
    fieldsVar,
    writeVar,
    base: visible.map((f) => member(f, baseExpression(f, 'response'), docOf(f))),
    responseOverrides: visible.filter((f) => f.optional).map((f) => member(f, `${access(fieldsVar, f.name)}.optional()`)),
    writeOverrides: c.fields
      .filter((f) => f.readOnly || f.writeOnly || hasObject(f.type))
      .map((f) => {
        const state = c.lifecycle?.field === f.name ? stateExpression(c.lifecycle, `${prefix}/${c.path}`) : undefined;
        return member(f, state ?? (f.readOnly ? 'readOnly' : baseExpression(f, 'request')), f.writeOnly ? docOf(f) : false);
      }),
    createOverrides: writable
      .filter((f) => f.default || f.optional)
      .map((f) =>
        member(f, f.default ? `${access(writeVar, f.name)}.default(${defaultArgument(f.default.value)})` : `${access(writeVar, f.name)}.optional()`),
      ),
    filters: c.fields
      .filter((f) => f.filterable)
      .map((f) => member(f, `${filterExpression(f, access(fieldsVar, f.name))}.optional()`)),
    defaultLimit: c.pagination.defaultLimit,
    maxLimit: c.pagination.maxLimit,
    numericFilters: c.fields.some((f) => f.filterable && (f.type.kind === 'int' || f.type.kind === 'number')),
    changedByTransitions: c.lifecycle !== undefined,
    transitions: (c.lifecycle?.transitions ?? []).map((t) => ({
      name: t.name,
      schema: inputTypeName(c, t.name),
      doc: [
        `The body of \`POST ${prefix}/${c.path}/{id}:${t.name}\` (${t.from.join(', ')} → ${t.to}).`,
        t.description ?? '',
        'An empty body is read as `{}`.',
      ].filter(Boolean).join(' '),
      expr: typeExpression({ kind: 'object', fields: t.input }, 'request'),
    })),
  };
}

/** Emits the zod schemas of every version, and the helpers they share. */
export function emitZod(api: ApiIR, options: EmitOptions): OutputFile[] {
  const files: OutputFile[] = runtimeFiles(options.runtime, 'zod/helpers.ts', 'zod-helpers.ts');
  for (const v of api.versions) {
    const at = project(api, v.name);
    const header = { title: at.title, version: v.name, lifecycle: lifecycleOf(v) };
    for (const c of at.collections) {
      const view: ZodCollectionView = { ...header, ...collectionView(at, c) };
      files.push({ path: `${v.name}/${c.name}.ts`, content: options.render('zod/collection', view), language: 'typescript' });
    }
    const barrel: ZodBarrelView = { ...header, files: at.collections.map((c) => c.name) };
    files.push({ path: `${v.name}/schemas.ts`, content: options.render('zod/schemas', barrel), language: 'typescript' });
  }
  return files;
}
