/**
 * MCP over Streamable HTTP on a Fastify app: one route (POST) that answers each request with a server of its own
 * (stateless: no session to keep, so any instance behind a load balancer answers), made from options the app derives
 * from the request (typically the caller's own credential, forwarded to the API).
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/**
 * The part of a Fastify instance the mount uses, typed here so that this module imports nothing of Fastify (an app
 * that runs the MCP server only on stdio needs no Fastify). A Fastify instance over HTTP or HTTPS fits it.
 */
export interface FastifyApp {
  route(options: {
    method: ("GET" | "POST" | "DELETE")[];
    url: string;
    handler: (
      request: {
        readonly raw: IncomingMessage;
        readonly body: unknown;
        readonly log: { error(details: object, message: string): void };
      },
      reply: { readonly raw: ServerResponse; hijack(): unknown },
    ) => Promise<void>;
  }): unknown;
}

/** What makes a request's server options: from its headers, typically the caller's credential. */
export type OptionsOf<O> = (request: IncomingMessage) => O | Promise<O>;

/** Where and how the MCP endpoint answers. */
export interface HttpMountOptions {
  /** The route, `/mcp` by default. */
  readonly path?: string;
  /**
   * With either list set, requests whose `Host` (or `Origin`) is not in it are refused: DNS rebinding protection for a
   * server on a developer's machine (`['127.0.0.1:3000', 'localhost:3000']`).
   */
  readonly allowedHosts?: string[];
  readonly allowedOrigins?: string[];
}

/** A JSON-RPC error answered before any MCP server exists for the request. */
function answer(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    );
}

/**
 * Adds the MCP endpoint to `app`: each POST gets the server `create` makes for it (its version, base URL and the
 * credential it calls the API with), connected to the request alone and closed with it. GET and DELETE (a session's
 * event stream and end, which a stateless endpoint has not) answer 405.
 */
export function mountStreamableHttp(
  app: FastifyApp,
  create: (request: IncomingMessage) => Server | Promise<Server>,
  options: HttpMountOptions = {},
): void {
  const { path = "/mcp", allowedHosts, allowedOrigins } = options;
  const guarded = allowedHosts !== undefined || allowedOrigins !== undefined;
  app.route({
    method: ["GET", "POST", "DELETE"],
    url: path,
    handler: async (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      if (request.raw.method !== "POST")
        return answer(
          res,
          405,
          -32000,
          "Method not allowed: this MCP endpoint is stateless; send every request as a POST.",
          { allow: "POST" },
        );
      let server: Server;
      try {
        server = await create(request.raw);
      } catch (error) {
        request.log.error(
          { err: error, source: "MCP server options" },
          "could not create the MCP server for a request",
        );
        return answer(res, 500, -32603, "Internal error");
      }
      // No sessionIdGenerator: stateless. JSON answers: a tool call is one request and one answer.
      const transport = new StreamableHTTPServerTransport({
        enableJsonResponse: true,
        ...(guarded && {
          enableDnsRebindingProtection: true,
          ...(allowedHosts && { allowedHosts }),
          ...(allowedOrigins && { allowedOrigins }),
        }),
      });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, res, request.body);
    },
  });
}
