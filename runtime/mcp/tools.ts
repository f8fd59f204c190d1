/**
 * What the generated tool tables hold: each tool of a version as its contract defines it (names, JSON Schemas,
 * hints, scopes), and the client method it calls.
 * @module
 */

/** A JSON Schema (2020-12), self-contained: shared schemas are inlined, never referred to. */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/** The hints of a tool, each a fact of the contract (see the docs' "Agents (MCP)" page). */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** The six operations a collection may offer. */
export type Operation =
  "list" | "get" | "create" | "replace" | "update" | "delete";

/** The client method a tool calls: an operation of a collection, or one of its lifecycle transitions. */
export type ToolCall =
  | { readonly collection: string; readonly op: Operation }
  | { readonly collection: string; readonly transition: string };

/** One tool of a version. */
export interface ToolSpec {
  /** `<collection>_<operation>` or `<collection>_<transition>`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Its arguments: `id`, `body`, a list's query, `ifMatch`, `idempotencyKey`. */
  readonly inputSchema: JsonSchema;
  /** What it answers (the resource, or a page); none when it answers nothing (a delete). */
  readonly outputSchema?: JsonSchema;
  readonly annotations: ToolHints;
  /** The scopes a credential needs for it, or null when it needs no credential in this version. */
  readonly scopes: readonly string[] | null;
  readonly call: ToolCall;
}

/** A version as its MCP server describes it. */
export interface VersionInfo {
  readonly name: string;
  /** `YYYY-MM-DD`, or absent while the version is not released. */
  readonly released?: string;
  readonly deprecated?: string;
  readonly sunset?: string;
  /** Where to read how to move off the version. */
  readonly docs?: string;
}
