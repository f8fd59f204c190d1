/**
 * @module The view models of the MCP server's templates besides the tools of a collection (`tools-view.ts`): the
 * index (`createMcpServer`), the stdio entry, the Fastify mount, the shared schemas and each version's module.
 * Every decision is made here; `templates/mcp/` only lays it out.
 */
import { takesBearer, takesCredentials, type ApiAt, type ApiIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { e, t as ty, type Expr, type Type } from '../../printer/ast.ts';
import { versionDocLines, versionIdentifier } from '../client/client-view.ts';
import { commonParameters } from '../openapi/build-document.ts';
import { buildFormatSchema, FORMAT_NAMES, type FormatKind } from '../openapi/field-schema.ts';
import { schemaSource, type RefTarget } from './schema-source.ts';
import { SHARED_ARGUMENTS, sharedArgumentSchemas, type SharedArgument } from './shared-arguments.ts';
import { FORMAT_CONSTS, type SchemaConstView, type ToolsFileView } from './tools-view.ts';

/** One version as the index sees it. */
export interface McpVersionView {
  /** Its tools module, as a string literal. */
  readonly module: string;
  /** The namespace it is imported as (`$v1`). */
  readonly alias: string;
  /** `createShopV1Client`. */
  readonly clientFactory: string;
}

/** The view of `mcp/index.ts`. */
export interface McpIndexView {
  readonly title: string;
  /** `{ createShopV1Client, ..., type ShopClientOptions }`: what it imports of the client. */
  readonly clientImports: Expr;
  readonly versions: readonly McpVersionView[];
  /** `ShopVersion`, and the union of the version names. */
  readonly versionType: string;
  readonly versionUnion: Type;
  readonly versionList: Expr;
  /** The newest released version (the newest one when none is released). */
  readonly defaultVersion: Expr;
  /** `ShopMcpOptions`. */
  readonly optionsName: string;
  /** `Omit<ShopClientOptions, "baseUrl" | ...>`: the client options it passes on. */
  readonly clientType: Type;
  /** `(options: ShopMcpOptions)`. */
  readonly params: Expr;
  /** The credentials the API takes, as `auth` accepts them, or false when it takes none. */
  readonly authType: Type | false;
  /** The API offers the OAuth 2.0 client credentials flow: `auth` may fetch its own tokens (and learn their scopes). */
  readonly tokenAuth: boolean;
  /** `{ name: "shop", title: "Shop API" }`. */
  readonly api: Expr;
  /** `{ v1: { ...$v1, client: createShopV1Client }, ... }`. */
  readonly servers: Expr;
  /** The usage example's options. */
  readonly example: string;
  /** The first server the API declares (the default `baseUrl`), or false when it declares none. */
  readonly defaultBaseUrl: string | false;
  /** The client's options: `{ ...client, baseUrl }`, the declared server when none is given. */
  readonly settings: Expr;
}

/** The view of `mcp/tools/<version>.ts`. */
export interface McpVersionFileView {
  readonly title: string;
  readonly version: string;
  readonly docLines: readonly string[];
  /** Each collection's module, as a string literal, and what the version imports of it (`{ tools as $orders }`). */
  readonly collections: readonly { readonly imports: Expr; readonly module: string }[];
  /** The version as its server describes it (`VersionInfo`). */
  readonly info: Expr;
  /** `[...$customers, ...$orders]`. */
  readonly tools: Expr;
}

/** The view of `mcp/stdio.ts`. */
export interface McpStdioView {
  readonly title: string;
  /** The first server the API declares (what `API_BASE_URL` defaults to), or false. */
  readonly defaultBaseUrl: string | false;
  /** `StdioSettings` of the API. */
  readonly settings: Expr;
  readonly versions: string;
  readonly defaultVersion: string;
  /** Whether the API takes any credential, an API key, a bearer token. */
  readonly credentials: boolean;
  readonly apiKey: boolean;
  readonly bearer: boolean;
}

/** The view of `mcp/http.ts`. */
export interface McpHttpView {
  readonly title: string;
  /** `registerShopMcp`. */
  readonly registerName: string;
  /** The mount's options (`ShopMcpMountOptions`), and the type of their `options` (`OptionsOf<ShopMcpOptions>`). */
  readonly mountOptionsName: string;
  readonly optionsType: Type;
  /** `(app: FastifyApp, mount: ShopMcpMountOptions)`. */
  readonly params: Expr;
  /** The header of API keys, as a string literal, or false. */
  readonly apiKeyHeader: string | false;
  readonly bearer: boolean;
  /** Whether the API takes any credential (the request's is forwarded). */
  readonly credentials: boolean;
  readonly defaultVersion: string;
  /** What it imports of the index: `{ createMcpServer, type McpAuth, type ShopMcpOptions }`. */
  readonly indexImports: Expr;
}

/** The view of `mcp/schemas.ts`: the format schemas, then the shared arguments (which refer to them). */
export interface McpSchemasView {
  readonly schemas: readonly SchemaConstView[];
}

const literal = (value: string): string => JSON.stringify(value);

/** The version a server is for when none is asked for: the newest released one, else the newest. */
export function defaultVersionOf(api: ApiIR): string {
  const released = api.versions.filter((v) => v.released !== undefined);
  return (released[released.length - 1] ?? api.versions[api.versions.length - 1])!.name;
}

/** The view of `mcp/index.ts`. */
export function buildMcpIndexView(api: ApiIR): McpIndexView {
  const base = pascalCase(api.name);
  const tokenAuth = api.auth.oauth2?.flows.some((f) => f.kind === 'clientCredentials') ?? false;
  const server = api.servers[0];
  const credentials: Type[] = [
    ...(api.auth.apiKey ? [ty.lit([ty.prop('apiKey', ty.ref('Credential'), false, true)])] : []),
    ...(takesBearer(api.auth) ? [ty.lit([ty.prop('bearer', ty.ref('Credential'), false, true)])] : []),
    ...(tokenAuth ? [ty.ref('Auth')] : []),
  ];
  const versions = api.versions.map((v) => ({
    module: literal(`./tools/${v.name}.js`),
    alias: `$${versionIdentifier(v.name)}`,
    clientFactory: `create${base}${versionIdentifier(v.name)}Client`,
  }));
  const types = [...(credentials.length > 0 ? ['type Credential'] : []), ...(tokenAuth ? ['type Auth'] : []), `type ${base}ClientOptions`];
  const shown = defaultVersionOf(api);
  const credential = tokenAuth
    ? 'auth: clientCredentials({ clientId, clientSecret })'
    : api.auth.apiKey
      ? 'auth: { apiKey: KEY }'
      : takesBearer(api.auth)
        ? 'auth: { bearer: TOKEN }'
        : '';
  return {
    title: api.title,
    clientImports: e.specifiers([...versions.map((v) => v.clientFactory), ...types]),
    versions,
    versionType: `${base}Version`,
    versionUnion: ty.union(api.versions.map((v) => ty.str(v.name))),
    versionList: e.arr(api.versions.map((v) => e.str(v.name))),
    defaultVersion: e.str(shown),
    optionsName: `${base}McpOptions`,
    clientType: ty.ref('Omit', [ty.ref(`${base}ClientOptions`), ty.union(['baseUrl', 'auth', 'bearer', 'apiKey'].map(ty.str))]),
    params: e.params([`options: ${base}McpOptions`]),
    authType: credentials.length > 0 ? ty.union(credentials) : false,
    tokenAuth,
    api: e.obj([e.prop('name', e.str(api.name)), e.prop('title', e.str(api.title))]),
    servers: e.obj(
      api.versions.map((v, i) =>
        e.prop(
          v.name,
          e.obj([
            e.prop('version', e.member(e.id(versions[i]!.alias), 'version')),
            e.prop('tools', e.member(e.id(versions[i]!.alias), 'tools')),
            e.prop('client', e.id(versions[i]!.clientFactory)),
          ]),
        ),
      ),
      true,
    ),
    // With a declared server, the example leaves baseUrl to its default.
    example: [`version: ${literal(shown)}`, ...(server ? [] : ['baseUrl: "https://api.example.com"']), ...(credential ? [credential] : [])].join(', '),
    defaultBaseUrl: server ? server.url : false,
    settings: e.obj([e.spread(e.id('client')), server ? e.prop('baseUrl', e.raw(`baseUrl ?? ${literal(server.url)}`)) : e.short('baseUrl')]),
  };
}

/** The view of `mcp/tools/<version>.ts`. */
export function buildMcpVersionView(api: ApiIR, at: ApiAt): McpVersionFileView {
  const v = at.version;
  const dates = (['released', 'deprecated', 'sunset', 'docs'] as const).flatMap((key) => (v[key] !== undefined ? [e.prop(key, e.str(v[key]!))] : []));
  const info = e.obj([e.prop('name', e.str(v.name)), ...dates]);
  const collections = at.collections.map((c) => ({
    alias: `$${c.name}`,
    imports: e.specifiers([`tools as $${c.name}`]),
    module: literal(`./${v.name}/${c.name}.js`),
  }));
  return {
    title: api.title,
    version: v.name,
    docLines: versionDocLines(api, v),
    collections: collections.map(({ imports, module }) => ({ imports, module })),
    info,
    tools: e.arr(collections.map((c) => e.raw(`...${c.alias}`))),
  };
}

/** The view of `mcp/stdio.ts`. */
export function buildMcpStdioView(api: ApiIR): McpStdioView {
  const apiKey = api.auth.apiKey !== undefined;
  const bearer = takesBearer(api.auth);
  const server = api.servers[0];
  return {
    title: api.title,
    defaultBaseUrl: server ? server.url : false,
    settings: e.obj([
      e.prop('title', e.str(api.title)),
      ...(server ? [e.prop('defaultBaseUrl', e.str(server.url))] : []),
      e.prop('versions', e.id('VERSIONS')),
      e.prop('defaultVersion', e.id('DEFAULT_VERSION')),
      e.prop('apiKey', e.json(apiKey)),
      e.prop('bearer', e.json(bearer)),
    ]),
    versions: api.versions.map((v) => v.name).join(', '),
    defaultVersion: defaultVersionOf(api),
    credentials: takesCredentials(api.auth),
    apiKey,
    bearer,
  };
}

/** The view of `mcp/http.ts`. */
export function buildMcpHttpView(api: ApiIR): McpHttpView {
  const base = pascalCase(api.name);
  return {
    title: api.title,
    registerName: `register${base}Mcp`,
    mountOptionsName: `${base}McpMountOptions`,
    optionsType: ty.ref('OptionsOf', [ty.ref(`${base}McpOptions`)]),
    params: e.params(['app: FastifyApp', `mount: ${base}McpMountOptions`]),
    apiKeyHeader: api.auth.apiKey ? literal(api.auth.apiKey.header.toLowerCase()) : false,
    bearer: takesBearer(api.auth),
    credentials: takesCredentials(api.auth),
    defaultVersion: literal(defaultVersionOf(api)),
    indexImports: e.specifiers(['createMcpServer', ...(takesCredentials(api.auth) ? ['type McpAuth'] : []), `type ${base}McpOptions`]),
  };
}

/** The shared schemas: the formats as every version's document defines them, and the arguments every tool shares. */
export function buildMcpSchemasView(): McpSchemasView {
  const kinds = Object.keys(FORMAT_CONSTS) as FormatKind[];
  const formats = kinds.map((kind): SchemaConstView => {
    const schema = buildFormatSchema(kind);
    return { name: FORMAT_CONSTS[kind], doc: String(schema['description']), value: e.json(schema) };
  });
  // The arguments refer to the formats of this module by name.
  const local = (ref: string): RefTarget => {
    const kind = kinds.find((k) => ref === `#/components/schemas/${FORMAT_NAMES[k]}`);
    if (!kind) throw new Error(`internal error: a shared argument refers to ${ref}`);
    return { expr: e.id(FORMAT_CONSTS[kind]), schema: buildFormatSchema(kind) };
  };
  const schemas = sharedArgumentSchemas(commonParameters(FORMAT_NAMES));
  const args = SHARED_ARGUMENTS.map((name): SchemaConstView => ({ name, doc: ARGUMENT_DOCS[name], value: schemaSource(schemas[name], local) }));
  return { schemas: [...formats, ...args] };
}

/** What each shared argument is, for its constant's documentation. */
const ARGUMENT_DOCS: { readonly [K in SharedArgument]: string } = {
  id: 'The `id` of a tool that reads or writes one resource.',
  cursor: 'The `cursor` of a list tool: the page after the one whose `next_cursor` it is.',
  ifMatch: 'The `ifMatch` of a tool that writes one resource: the write happens only while the resource is as last read.',
  ifMatchRequired: 'The `ifMatch` of a tool that writes one resource of a collection whose writes must be conditional.',
  createKey: 'The `idempotencyKey` of a create tool: by default derived from the arguments, so a repeated call creates nothing new.',
  transitionKey: 'The `idempotencyKey` of a transition tool: by default a new one for each call.',
};

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'mcp/schemas': McpSchemasView;
    'mcp/http': McpHttpView;
    'mcp/index': McpIndexView;
    'mcp/stdio': McpStdioView;
    'mcp/tools': ToolsFileView;
    'mcp/version': McpVersionFileView;
  }
}
