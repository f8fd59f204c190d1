/**
 * @module The IR as one version sees it (`FieldAt`, `CollectionAt`, `ApiAt`, ...): what `project()` derives from
 * the history of `ir-history.ts` for each version, and what the emitters read. Re-exported by `ir.ts`.
 */
import type { OperationName } from '../dsl/defs.ts';
import type { AuthIR } from './ir-auth.ts';
import type { ApiIR, CollectionIR, FieldShape, OpenApiIR, RateLimitIR, ResourceAction, ServerIR, SourceRef, VersionIR, WireFormat } from './ir-history.ts';
import type { QueryAt } from './ir-query.ts';

/** A field as one version sees it. `name` is its name in that version; `key` its newest name. */
export interface FieldAt extends FieldShape<FieldAt> {
  readonly kind: 'field-at';
  readonly name: string;
  readonly key: string;
  /** The version that removes the field, and what older versions answer for it once it is gone. */
  readonly removedIn?: { readonly version: string; readonly fallback?: { readonly value: unknown } };
  readonly loc: SourceRef;
  /** Where each modifier was last called, by member name (the diff points its findings at them). */
  readonly calls?: Readonly<Record<string, SourceRef>>;
  /** The field's version markers with where each was written, oldest first (the diff points at them). */
  readonly markers?: readonly MarkerAt[];
}

/** A version marker of a field: which one, the version it names (and its index), and where it was written. */
export interface MarkerAt {
  readonly member: 'addedIn' | 'removedIn' | 'renamedFrom' | 'typeChangedFrom' | 'madeOptionalIn' | 'madeRequiredIn';
  readonly version: string;
  readonly index: number;
  readonly loc: SourceRef;
}

/** A transition as one version sees it: its `from` states are those the version knows. */
export interface TransitionAt {
  readonly kind: 'transition-at';
  readonly name: string;
  readonly from: readonly string[];
  readonly to: string;
  readonly input: readonly FieldAt[];
  /** The scopes it needs: its own, or the collection's write scopes. */
  readonly scopes: readonly string[];
  readonly rateLimit?: RateLimitIR;
  readonly description?: string;
  readonly loc: SourceRef;
}

/** A lifecycle as one version sees it. */
export interface LifecycleAt {
  readonly kind: 'lifecycle-at';
  /** The state field's name in this version. */
  readonly field: string;
  /** Its newest name. */
  readonly key: string;
  /** The states this version knows (the field's enum values there), in the order written. */
  readonly states: readonly string[];
  readonly initial: string;
  /** The transitions this version offers, in the order written. */
  readonly transitions: readonly TransitionAt[];
  readonly loc: SourceRef;
}

/** A collection as one version sees it. */
export interface CollectionAt {
  readonly kind: 'collection-at';
  readonly name: string;
  readonly key: string;
  readonly path: string;
  /** PascalCase singular used for generated type names (`Order`). */
  readonly typeName: string;
  readonly description?: string;
  readonly fields: readonly FieldAt[];
  readonly operations: readonly OperationName[];
  readonly scopes: CollectionIR['scopes'];
  readonly rateLimit?: RateLimitIR;
  readonly public: readonly OperationName[];
  readonly pagination: CollectionIR['pagination'];
  /** What its list and read queries offer in this version: filters, sort keys, default order, masks, expansions. */
  readonly query: QueryAt;
  readonly lifecycle?: LifecycleAt;
  /** Writes without `If-Match` answer 428. */
  readonly requireIfMatch: boolean;
  /** Set on the webhook endpoints collection, whose handlers are built in. */
  readonly builtin?: 'webhook-endpoints';
  readonly loc: SourceRef;
  /** Where each marker of the collection was last called, by member name. */
  readonly calls?: Readonly<Record<string, SourceRef>>;
}

/** The API as one version sees it. */
export interface ApiAt {
  readonly kind: 'api-at';
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly version: VersionIR;
  readonly versioning: ApiIR['versioning'];
  readonly auth: AuthIR;
  readonly rateLimit?: RateLimitIR;
  /** The formats of bodies and answers (see {@link ApiIR.formats}). */
  readonly formats?: readonly WireFormat[];
  readonly collections: readonly CollectionAt[];
  /** The event types this version delivers, derived ones (collection order) then custom ones. */
  readonly events?: readonly EventAt[];
  /** Where the API is served (the same in every version). */
  readonly servers: readonly ServerIR[];
  /** How the OpenAPI documents are written. */
  readonly openapi: OpenApiIR;
  /** Where `defineApi` was called. */
  readonly loc?: SourceRef;
}

/** The payload of an event as one version sees it: a collection's resource, or the custom event's fields. */
export type EventSourceAt =
  | { readonly kind: 'resource'; readonly collection: string; readonly action: ResourceAction; readonly state?: string }
  | { readonly kind: 'custom'; readonly payload: readonly FieldAt[] };

/** An event type as one version delivers it. */
export interface EventAt {
  readonly kind: 'event-at';
  readonly type: string;
  readonly description?: string;
  readonly source: EventSourceAt;
  readonly loc: SourceRef;
}
