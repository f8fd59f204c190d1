/**
 * The MCP server on stdio, for desktop hosts that start it as a command: configured by the environment, it speaks
 * JSON-RPC on stdin and stdout and writes nothing else there (problems go to stderr).
 * @module
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/** What the environment may hold, and what the API accepts of it. */
export interface StdioSettings<V extends string> {
  /** The API's title, for messages. */
  readonly title: string;
  /** What `API_BASE_URL` defaults to: the first server the API declares (without one, it is required). */
  readonly defaultBaseUrl?: string;
  readonly versions: readonly V[];
  /** The version `API_VERSION` defaults to: the newest released one. */
  readonly defaultVersion: V;
  /** Whether the API takes API keys (`API_KEY`) and bearer tokens (`API_TOKEN`). */
  readonly apiKey: boolean;
  readonly bearer: boolean;
}

/** The server options the environment asks for, and the credential it holds. */
export interface StdioOptions<V extends string> {
  readonly version: V;
  readonly baseUrl: string;
  /** `API_KEY`, when set. */
  readonly apiKey?: string;
  /** `API_TOKEN`, when set. */
  readonly token?: string;
  readonly scopes?: readonly string[];
}

/**
 * Reads `API_BASE_URL` (where the API is; required unless the API declares a server), `API_VERSION` (one of the
 * versions; default: the newest released), `API_KEY` or `API_TOKEN` (the credential, at most one), and `API_SCOPES`
 * (the credential's scopes, separated by spaces or commas: only the tools they allow are listed). Answers the
 * options, or every problem found.
 */
export function stdioOptions<V extends string>(
  env: Readonly<Record<string, string | undefined>>,
  settings: StdioSettings<V>,
):
  | { readonly options: StdioOptions<V> }
  | { readonly problems: readonly string[] } {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const baseUrl = value("API_BASE_URL") ?? settings.defaultBaseUrl;
  if (baseUrl === undefined)
    problems.push(
      `API_BASE_URL is not set: set it to where ${settings.title} is served (https://api.example.com).`,
    );
  else if (!/^https?:$/.test(protocolOf(baseUrl)))
    problems.push(
      `API_BASE_URL ${JSON.stringify(baseUrl)} is not an http or https URL.`,
    );
  const asked = value("API_VERSION");
  const version =
    asked === undefined
      ? settings.defaultVersion
      : settings.versions.find((v) => v === asked);
  if (version === undefined)
    problems.push(
      `API_VERSION ${JSON.stringify(asked)} is not a version of ${settings.title}; it has ${settings.versions.join(", ")}.`,
    );
  const apiKey = value("API_KEY");
  const token = value("API_TOKEN");
  if (apiKey !== undefined && token !== undefined)
    problems.push("API_KEY and API_TOKEN are both set: set one of them.");
  if (apiKey !== undefined && !settings.apiKey)
    problems.push(
      `${settings.title} takes no API key${settings.bearer ? ": set API_TOKEN instead" : ""}.`,
    );
  if (token !== undefined && !settings.bearer)
    problems.push(
      `${settings.title} takes no bearer token${settings.apiKey ? ": set API_KEY instead" : ""}.`,
    );
  const listed = value("API_SCOPES");
  const scopes = listed?.split(/[\s,]+/).filter(Boolean);
  if (problems.length > 0 || baseUrl === undefined || version === undefined)
    return { problems };
  return {
    options: {
      version,
      baseUrl,
      ...(apiKey !== undefined && { apiKey }),
      ...(token !== undefined && { token }),
      ...(scopes && { scopes }),
    },
  };
}

/** The protocol of a URL, or "" when the text is not one. */
function protocolOf(text: string): string {
  try {
    return new URL(text).protocol;
  } catch {
    return "";
  }
}

/** Connects `server` to this process's stdin and stdout; it runs until stdin closes. */
export async function serveStdio(server: Server): Promise<void> {
  await server.connect(new StdioServerTransport());
}
