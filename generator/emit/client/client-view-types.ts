/**
 * @module The view models of the client's modules (`client/<version>/<collection>.ts`, `client/<version>.ts`,
 * `client/index.ts`) as the templates read them. `client-view.ts` builds them from the IR.
 */
import type { Type, Expr } from '../../printer/ast.ts';
import type { MemberView } from './client-types.ts';

/** A named object type (`interface X { ... }`), or an alias of another when `alias` is set. */
export interface ObjectTypeView {
  readonly name: string;
  readonly doc: string;
  readonly members: readonly MemberView[];
  /** Another type when this one is identical to it (`type OrderReplace = OrderCreate`), else false. */
  readonly alias: Type | false;
}

/** The view of `client/<version>/<collection>.ts`: one collection's types in one version. */
export interface ClientCollectionView {
  readonly title: string;
  readonly version: string;
  /** The collection's name, as the DSL spells it. */
  readonly name: string;
  /** The object types to declare, resource type first. */
  readonly types: readonly ObjectTypeView[];
  /** The list query (filters, sort, fields and expansions beside `$.ListParams`) and page types, or false when the collection has no list. */
  readonly list:
    | {
        readonly query: string;
        readonly head: Type;
        readonly filters: readonly MemberView[];
        /** The sort keys (`"title" | "-title"`), or null when nothing sorts. */
        readonly sort: Type | null;
        /** The fields a mask names. */
        readonly fields: Type;
        /** The expandable refs, or null without any. */
        readonly expand: Type | null;
        readonly page: string;
        readonly pageType: Type;
        readonly doc: string;
      }
    | false;
  /** Whether the module imports the runtime's promise types (`$`): it has a list. */
  readonly runtime: boolean;
  /** The types of other collections its expandable refs hold: `{ Customer }` from `"./customers.js"`. */
  readonly refs: readonly { readonly names: Expr; readonly module: string }[];
  /** `OrderTypes`: the collection's `CollectionTypes` interface, imported by the version module only. */
  readonly slotsName: string;
  /**
   * The `CollectionTypes` slots the collection fills: `item`, and `create`, `replace`, `patch`, `query`
   * only when it offers their operation, `ops`, and `transitions` only with a lifecycle.
   */
  readonly slots: readonly { readonly key: string; readonly type: Type }[];
  /** The names of the lifecycle's transitions in this version. */
  readonly transitions: readonly string[];
  /** Whether a type of the module holds a file (it imports the types of `runtime/files.ts`). */
  readonly files: boolean;
}

/** One collection as its version module sees it. */
export interface CollectionView {
  /** The property key of the collection in its version's namespace. */
  readonly key: string;
  /** The path segment, as a string literal. */
  readonly path: string;
  readonly doc: string | false;
  /** The collection's module, as a string literal (`'./v1/orders.js'`). */
  readonly module: string;
  /** `OrderTypes`, and the local name it is imported as (`$Order`: cannot clash with the module's own names). */
  readonly slotsName: string;
  readonly alias: string;
  /** `{ OrderTypes as $Order }`: what the version module imports of the collection's module. */
  readonly imports: Expr;
}

/** The view of `client/<version>.ts`, which assembles the version from its collection modules. */
export interface VersionFileView {
  readonly title: string;
  readonly version: string;
  /** The version as a string literal. */
  readonly versionLiteral: string;
  /** JSDoc lines of the version (lifecycle, `@deprecated`, `@experimental`). */
  readonly docLines: readonly string[];
  /** `ShopV1`: the namespace interface. */
  readonly namespaceName: string;
  /** `ShopV1Types`: the map of collection to types. */
  readonly typesName: string;
  /** `$.Namespace<ShopV1Types>`. */
  readonly namespaceType: Type;
  /** `(t: $.Transport)`. */
  readonly factoryParams: Expr;
  /** `$.createNamespace<ShopV1Types>(t, "v1", { orders: ["orders", [...]], ... })`. */
  readonly namespaceCall: Expr;
  /** `createV1`: builds the namespace on a transport. */
  readonly factoryName: string;
  readonly collections: readonly CollectionView[];
  /** The `WebhookEvent` union of the events the version delivers, or null without events. */
  readonly webhookEvent: Type | null;
  /** Whether a collection of the version has transitions (the version module hands `transitions.ts`'s errors to its namespace). */
  readonly transitions: boolean;
  /** Whether a collection of the version has file fields (the version module adds uploads and downloads from `files.ts`). */
  readonly files: boolean;
}

/** One version as the index sees it. */
export interface IndexVersionView {
  readonly key: string;
  /** The version's name. */
  readonly version: string;
  readonly module: string;
  /** `{ createV1, type ShopV1 }`. */
  readonly imports: Expr;
  /** `createV1(t)`. */
  readonly factoryCall: Expr;
  readonly namespaceName: string;
  readonly factoryName: string;
  /** `createShopV1Client`: a client of this version alone. */
  readonly clientFactoryName: string;
  /** The name the version's types are re-exported under (`V1`). */
  readonly typesAlias: string;
  readonly docLines: readonly string[];
}

/** The view of `client/index.ts`. */
export interface ClientIndexView {
  readonly title: string;
  /** `ShopClient`. */
  readonly clientName: string;
  /** `createShopClient`. */
  readonly factoryName: string;
  /** `ShopClientOptions`. */
  readonly optionsName: string;
  /** The options type (`ClientOptions`, or an `Omit<...>` of the schemes the API lacks; `baseUrl` optional with servers). */
  readonly optionsType: Type;
  /** What the index imports of the options module: `{ Auth, ClientOptions, WithDefaultBaseUrl }` as it needs them. */
  readonly optionsImports: Expr;
  /** The first server the API declares, as a string literal (the default `baseUrl`), or false. */
  readonly baseUrl: string | false;
  /** `createTransport(options, API_KEY_HEADER, VERSION_HEADER)`, `baseUrl` defaulting to the first server. */
  readonly transportCall: Expr;
  /** The header of API keys, as a string literal, or `null` when the API takes none. */
  readonly apiKeyHeader: string;
  /** The header that selects the version, as a string literal, or `null` when the version is a path prefix. */
  readonly versionHeader: string;
  /** What the index re-exports of the runtime: `{ ApiError, ..., type Problem }` and the module, as a string literal. */
  readonly runtimeExports: readonly { readonly typeOnly: boolean; readonly specifiers: Expr; readonly module: string }[];
  /** The declared token URL of the OAuth 2.0 client credentials flow, as a string literal (for `clientCredentials`), or false. */
  readonly tokenUrl: string | false;
  /** `oauth.clientCredentials(credentials, "<declared token URL>")`, or false without that flow. */
  readonly clientCredentials: Expr | false;
  /** `(options: ShopClientOptions)`. */
  readonly factoryParams: Expr;
  readonly versions: readonly IndexVersionView[];
  /** The usage example: the options to pass and a collection to list (of the newest released version). */
  readonly example: { readonly options: string; readonly collection: string } | false;
  /** The client of the newest released version alone (`createShopV2Client`), named in the module's docs. */
  readonly versionClient: string;
}
