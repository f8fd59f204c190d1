/**
 * A tool call sent through the generated client of the server's version: the arguments (already valid by the
 * tool's input schema) become the client method's parameters, and its answer the tool's result.
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { answered, done, failed } from "./results.js";
import type { ToolSpec } from "./tools.js";

/** The arguments of a tool, as its input schema allows them. */
type Args = Readonly<Record<string, unknown>>;

/** What a client method returns: a promise of the data that also gives the `Response`. */
interface Answer {
  withResponse(): Promise<{ data: unknown; response: Response }>;
}

type Method = (...args: unknown[]) => Answer;

/** A client method by collection and name, checked to exist: the generated tables and client are generated together. */
function methodOf(client: object, collection: string, name: string): Method {
  const resource: unknown = Reflect.get(client, collection);
  const method: unknown =
    typeof resource === "object" && resource !== null
      ? Reflect.get(resource, name)
      : undefined;
  if (typeof method !== "function")
    throw new TypeError(`the client has no method ${collection}.${name}`);
  return (...args) => Reflect.apply(method, resource, args) as Answer;
}

/** JSON with sorted keys: the same arguments give the same text, whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map(
        (k) =>
          `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`,
      )
      .join(",")}}`;
  return JSON.stringify(value);
}

/**
 * The `Idempotency-Key` of a create called without one: a hash of the tool and its arguments, so that the same call
 * made again (an agent retrying after a lost answer) is answered the first resource instead of creating another.
 */
async function keyOf(tool: string, args: Args): Promise<string> {
  const bytes = new TextEncoder().encode(`${tool}\0${canonical(args)}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `mcp-${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** The request options of a call: its precondition and idempotency key, when it has them. */
function optionsOf(args: Args, key?: string): Record<string, string> {
  const ifMatch = text(args["ifMatch"]);
  return {
    ...(ifMatch !== undefined && { ifMatch }),
    ...(key !== undefined && { idempotencyKey: key }),
  };
}

/** Sends one call and makes its result; a failure is a result too (`isError`), never a thrown error. */
export async function callTool(
  client: object,
  spec: ToolSpec,
  args: Args,
): Promise<CallToolResult> {
  const { call } = spec;
  const hasBody = "body" in ((spec.inputSchema["properties"] ?? {}) as object);
  try {
    if ("transition" in call) {
      const send = methodOf(client, call.collection, call.transition);
      const key = text(args["idempotencyKey"]);
      const { data, response } = await send(
        args["id"],
        args["body"] ?? {},
        optionsOf(args, key),
      ).withResponse();
      return answered(data, response.headers.get("etag"));
    }
    const send = methodOf(client, call.collection, call.op);
    switch (call.op) {
      case "list": {
        // One page: the arguments are the list's query (limit, cursor, filters).
        const { data } = await send(args).withResponse();
        return answered(data, null);
      }
      case "get": {
        const { data, response } = await send(args["id"]).withResponse();
        return answered(data, response.headers.get("etag"));
      }
      case "create": {
        const key =
          text(args["idempotencyKey"]) ?? (await keyOf(spec.name, args));
        const { data, response } = await send(
          args["body"],
          optionsOf(args, key),
        ).withResponse();
        return answered(data, response.headers.get("etag"));
      }
      case "replace":
      case "update": {
        const { data, response } = await send(
          args["id"],
          args["body"],
          optionsOf(args),
        ).withResponse();
        return answered(data, response.headers.get("etag"));
      }
      case "delete": {
        await send(args["id"], optionsOf(args)).withResponse();
        return done(`Deleted ${call.collection} ${String(args["id"])}.`);
      }
    }
  } catch (error) {
    return failed(error, hasBody);
  }
}
