/**
 * @module The view of `mcp/tools/<version>/<collection>.ts`: one collection's MCP tools in one version. Names, hints
 * and scopes come from the contract (`model/mcp-tools.ts`), schemas from the version's OpenAPI document
 * (`tool-schemas.ts`), descriptions from the DSL's documentation.
 */
import type { ApiAt, CollectionAt, OperationName } from '../../model/ir.ts';
import { terminalStates, toolHints, toolNameOf, toolScopes, toolTargets, type ToolTarget } from '../../model/mcp-tools.ts';
import { capitalized, singularize, withArticle } from '../../model/names.ts';
import { e, type Expr } from '../../printer/ast.ts';
import { collectionDocument, type CollectionDocument } from '../openapi/build-document.ts';
import { buildFormatSchema, type FormatKind, type FormatNames } from '../openapi/field-schema.ts';
import { humanName } from '../openapi/operations.ts';
import { schemaSource, type RefTarget } from './schema-source.ts';
import { SHARED_REF, sharedArgumentSchemas, type SharedArgument } from './shared-arguments.ts';
import { toolSchemas } from './tool-schemas.ts';

/** A schema the tools share, declared once as a constant. */
export interface SchemaConstView {
  readonly name: string;
  readonly doc: string;
  readonly value: Expr;
}

/** The view of one collection's tools file. */
export interface ToolsFileView {
  readonly title: string;
  readonly version: string;
  readonly name: string;
  /** Whether a schema refers to the shared schemas (`schemas.ts`, imported as `$`: formats and arguments). */
  readonly shared: boolean;
  /** The collection's schemas the tools use, each after those it refers to. */
  readonly schemas: readonly SchemaConstView[];
  /** The `ToolSpec` array literal. */
  readonly tools: Expr;
}

/** The identifier of each shared format schema in `schemas.ts`. */
export const FORMAT_CONSTS: { readonly [K in FormatKind]: string } = { datetime: 'dateTime', date: 'date', uuid: 'uuid', email: 'email' };

const SCHEMA_REF = '#/components/schemas/';

/** `markShipped` reads `Mark shipped`. */
const sentence = (name: string): string => capitalized(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());

const quoted = (states: readonly string[]): string => states.map((s) => `\`${s}\``).join(' or ');

/** What a tool does, in the words of the DSL's documentation and of the contract. */
function descriptionOf(c: CollectionAt, target: ToolTarget, summary: string, scopes: readonly string[] | null): string {
  const a = withArticle(humanName(singularize(c.name)));
  const sentences: string[] = [];
  if (target.kind === 'transition') {
    const t = target.transition;
    const final = c.lifecycle && terminalStates(c.lifecycle).has(t.to) ? ', a final state: nothing moves it on from there' : '';
    sentences.push(
      `${sentence(t.name)} ${a}: it moves from ${quoted(t.from)} to \`${t.to}\`${final}; from any other state the call fails (409 invalid_transition).`,
    );
    if (t.description) sentences.push(t.description);
  } else {
    const { defaultLimit, maxLimit } = c.pagination;
    const what: { readonly [K in OperationName]: string } = {
      list: `${summary}: one page of at most \`limit\` (${defaultLimit} by default, at most ${maxLimit}) and \`next_cursor\`; pass it as \`cursor\` for the next page, until it is null.`,
      get: `${summary} by its id.`,
      create: `${summary}.`,
      replace: `${summary}: send every writable field, as for a create; read-only fields keep their values.`,
      update: `${summary}: send only the fields to change; the others keep their values.`,
      delete: `${summary}.`,
    };
    sentences.push(what[target.op]);
  }
  if (c.description) sentences.push(c.description);
  const writes = target.kind === 'transition' || (target.op !== 'list' && target.op !== 'get' && target.op !== 'create');
  if (writes && c.requireIfMatch) sentences.push(`Needs \`ifMatch\`: the ETag of the ${humanName(singularize(c.name))} as last read (get answers it).`);
  if (scopes !== null && scopes.length > 0) sentences.push(`Needs the scope ${scopes.join(' and ')}.`);
  return sentences.join(' ');
}

/** The constants of a collection's schemas, each declared after those it refers to, and how to refer to any `$ref`. */
function constants(doc: CollectionDocument): { resolve: (ref: string) => RefTarget; declared: SchemaConstView[]; shared: () => boolean } {
  const declared: SchemaConstView[] = [];
  const seen = new Set<string>();
  let shared = false;
  const kinds = Object.entries(doc.formats) as [FormatKind, string][];
  const argumentSchemas = sharedArgumentSchemas(doc.parameters);
  const resolve = (ref: string): RefTarget => {
    if (ref.startsWith(SHARED_REF)) {
      const name = ref.slice(SHARED_REF.length) as SharedArgument;
      shared = true;
      return { expr: e.member(e.id('$'), name), schema: argumentSchemas[name] };
    }
    const name = ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : '';
    const kind = kinds.find(([, n]) => n === name)?.[0];
    if (kind) {
      shared = true;
      return { expr: e.member(e.id('$'), FORMAT_CONSTS[kind]), schema: buildFormatSchema(kind) };
    }
    const schema = doc.schemas[name];
    if (!schema) throw new Error(`internal error: the MCP tools refer to ${ref}, which the document does not hold`);
    if (!seen.has(name)) {
      seen.add(name);
      // Its own references are declared first, so every constant is declared before it is used.
      const value = schemaSource(schema, resolve);
      const doc = typeof schema['description'] === 'string' ? schema['description'] : `The ${name} schema.`;
      declared.push({ name, doc, value });
    }
    return { expr: e.id(name), schema };
  };
  return { resolve, declared, shared: () => shared };
}

/**
 * The view of one collection's tools in version `api`; `formats` are the version's format names when `api` holds
 * only `c` (by default, `api`'s own).
 */
export function buildToolsFile(api: ApiAt, c: CollectionAt, formats?: FormatNames): ToolsFileView {
  const doc = collectionDocument(api, c, formats);
  const { resolve, declared, shared } = constants(doc);
  const tools = toolTargets(c).map((target): Expr => {
    const schemas = toolSchemas(doc, api, c, target);
    const hints = toolHints(c, target);
    const scopes = toolScopes(api, c, target);
    const call = target.kind === 'operation' ? e.prop('op', e.str(target.op)) : e.prop('transition', e.str(target.transition.name));
    // A transition's title without the document's `(open → paid)`: the description says where it moves.
    const title = target.kind === 'operation' ? schemas.summary : `${sentence(target.transition.name)} ${withArticle(humanName(singularize(c.name)))}`;
    return e.obj([
      e.prop('name', e.str(toolNameOf(c, target))),
      e.prop('title', e.str(title)),
      e.prop('description', e.str(descriptionOf(c, target, schemas.summary, scopes))),
      e.prop('inputSchema', schemaSource(schemas.input, resolve)),
      ...(schemas.output ? [e.prop('outputSchema', schemaSource(schemas.output, resolve))] : []),
      e.prop(
        'annotations',
        e.obj([
          e.prop('readOnlyHint', e.json(hints.readOnlyHint)),
          e.prop('destructiveHint', e.json(hints.destructiveHint)),
          e.prop('idempotentHint', e.json(hints.idempotentHint)),
          e.prop('openWorldHint', e.json(hints.openWorldHint)),
        ]),
      ),
      e.prop('scopes', scopes === null ? e.json(null) : e.arr(scopes.map(e.str))),
      e.prop('call', e.obj([e.prop('collection', e.str(c.name)), call])),
    ]);
  });
  return { title: api.title, version: api.version.name, name: c.name, shared: shared(), schemas: declared, tools: e.arr(tools) };
}
