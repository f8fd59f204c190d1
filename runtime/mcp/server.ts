/**
 * The MCP server of one API version: its tools, listed by the scopes of the server's credential when they are
 * known, each call checked against the tool's input schema (nothing is sent when it fails) and then sent through the
 * generated client of that version, so the server always speaks that version to the API.
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { callTool } from "./calls.js";
import {
  FAILURE_SCHEMA,
  MAX_ISSUES,
  failed,
  refused,
  type Issue,
} from "./results.js";
import type { ToolSpec, VersionInfo } from "./tools.js";

/** The scopes a credential was granted, or null when they are not known (then every tool is listed). */
export type Scopes = () => Promise<readonly string[] | null>;

/** What an `auth` that fetches its own tokens (the generated client's `clientCredentials`) gives besides them. */
export interface TokenGrant {
  readonly scopes?: () => Promise<readonly string[] | null>;
}

/** How a server learns its credential's scopes: those configured, else those granted with its tokens, else none. */
export function scopesOf(
  configured: readonly string[] | undefined,
  grant?: TokenGrant,
): Scopes {
  if (configured !== undefined) return async () => configured;
  const granted = grant?.scopes;
  return granted ? () => granted() : async () => null;
}

/** What a version's server is made of. */
export interface ToolServerOptions {
  /** The API's name (`shop`) and title (`Shop API`). */
  readonly api: { readonly name: string; readonly title: string };
  readonly version: VersionInfo;
  readonly tools: readonly ToolSpec[];
  /** The version's namespace of the generated client (what `createXVnClient` returns). */
  readonly client: object;
  readonly scopes: Scopes;
}

/** Whether a credential with `granted` scopes may call `tool`. */
const allows = (granted: readonly string[] | null, tool: ToolSpec): boolean =>
  granted === null ||
  tool.scopes === null ||
  tool.scopes.every((s) => granted.includes(s));

/** How a server introduces itself to the agent: the API, the version it speaks, and that version's state. */
function instructionsOf(api: ToolServerOptions["api"], v: VersionInfo): string {
  const state = v.released
    ? `released on ${v.released}${v.deprecated ? `, deprecated since ${v.deprecated}` : ""}${v.sunset ? `; it stops being served on ${v.sunset}` : ""}`
    : "not released yet: it may still change";
  const docs = v.deprecated && v.docs ? ` How to move off it: ${v.docs}.` : "";
  return (
    `Tools of ${api.title}, version ${v.name} (${state}).${docs} ` +
    "Every call goes to the API in this version. A list tool answers one page: pass its next_cursor as cursor for the next. " +
    "A failed call answers isError with the API's problem (status, code, detail, errors with JSON pointers into the arguments)."
  );
}

/** The tool as `tools/list` describes it: its output schema admits the failure a result with `isError` carries. */
function describe(spec: ToolSpec): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema as Tool["inputSchema"],
    // A failed call's structured content is the problem; clients that check every result against the output schema
    // (the SDK's own, up to 1.32) would otherwise refuse the failure instead of handing it to the agent.
    ...(spec.outputSchema && {
      outputSchema: {
        type: "object",
        anyOf: [spec.outputSchema, FAILURE_SCHEMA],
      } as Tool["outputSchema"],
    }),
    annotations: { title: spec.title, ...spec.annotations },
  };
}

/** The issues of arguments the input schema refused, as JSON pointers into the arguments. */
function issuesOf(validate: ValidateFunction): Issue[] {
  return (validate.errors ?? []).slice(0, MAX_ISSUES).map((e) => {
    const params = e.params as Record<string, unknown>;
    const name = params["missingProperty"] ?? params["additionalProperty"];
    const at =
      typeof name === "string"
        ? `${e.instancePath}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`
        : e.instancePath;
    const detail =
      e.keyword === "required"
        ? "is required"
        : e.keyword !== "additionalProperties"
          ? (e.message ?? "is invalid")
          : e.instancePath === ""
            ? "is not an argument of this tool"
            : "is not a field here (unknown fields are refused)";
    return { pointer: `#${at}`, detail };
  });
}

// One validator per tool, compiled when it is first called and shared by every server of the process: a stateless
// HTTP endpoint makes a server per request, and compiling is what costs.
let ajv: Ajv2020 | undefined;
const validators = new WeakMap<ToolSpec, ValidateFunction>();

/** The validator of a tool's input schema. */
function validatorOf(spec: ToolSpec): ValidateFunction {
  let validate = validators.get(spec);
  if (!validate) {
    ajv ??= new Ajv2020({ allErrors: true, validateFormats: false });
    validators.set(spec, (validate = ajv.compile(spec.inputSchema)));
  }
  return validate;
}

/**
 * Creates the MCP server of one version (not connected: connect it to a transport). Its tools are `tools`; a credential
 * whose scopes are known sees only the tools they allow, and calling another one is an error.
 */
export function createToolServer(options: ToolServerOptions): Server {
  const { api, version, tools, client, scopes } = options;
  const server = new Server(
    {
      name: `${api.name}-${version.name}`,
      title: `${api.title} ${version.name}`,
      version: version.name,
    },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: instructionsOf(api, version),
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const granted = await scopes();
    return { tools: tools.filter((t) => allows(granted, t)).map(describe) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const spec = byName.get(name);
    if (!spec)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    let granted: readonly string[] | null;
    try {
      granted = await scopes();
    } catch (error) {
      // No token to learn them from (the token endpoint refused or did not answer): the call could not be made.
      return failed(error, false);
    }
    if (!allows(granted, spec))
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool ${name} needs the scope ${(spec.scopes ?? []).join(" and ")}, which this server's credential was not granted.`,
      );
    const validate = validatorOf(spec);
    if (!validate(args)) {
      const errors = issuesOf(validate);
      return refused({
        status: 400,
        code: "validation_failed",
        title: "Bad Request",
        detail: `The arguments are invalid (${errors.length} issue${errors.length === 1 ? "" : "s"}); nothing was sent to the API.`,
        errors,
      });
    }
    return callTool(client, spec, args);
  });
  return server;
}
