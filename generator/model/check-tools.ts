/**
 * @module A warning (RG400) for each MCP tool whose name MCP hosts would refuse: longer than 64 characters (Claude's
 * and OpenAI's tool names are `^[A-Za-z0-9_-]{1,64}$`). Reported by `generate` beside the other warnings about what it
 * wrote, only when it writes the MCP server.
 */
import type { Diagnostic } from './diagnostics.ts';
import type { ApiIR, SourceRef } from './ir.ts';
import { toolName } from './mcp-tools.ts';

/** The longest tool name hosts accept. */
export const MAX_TOOL_NAME = 64;

/**
 * A warning for every tool of any version whose name is longer than {@link MAX_TOOL_NAME}, once per operation or
 * transition, at the collection or the transition in `defineApi({...})` of `apiPath`.
 */
export function longToolNames(api: ApiIR, apiPath: string): Diagnostic[] {
  if (api.mcp === false) return [];
  // Located by the call and the path to the property (a model built without call sites has no lines).
  const at = (...path: string[]): SourceRef => ({ file: apiPath, line: 0, member: 'defineApi', path: ['collections', ...path] });
  return api.collections.flatMap((c) => {
    // The collection's name in every version: an older one may be the longer.
    const names = [c.name, ...c.renames.map((r) => r.from)];
    const members = [
      ...c.operations.map((o) => ({ name: o.name, what: 'collection', loc: at(c.name) })),
      ...(c.lifecycle?.transitions ?? []).map((t) => ({
        name: t.name,
        what: 'collection or the transition',
        loc: at(c.name, 'lifecycle', 'transitions', t.name),
      })),
    ];
    return members.flatMap(({ name, what, loc }): Diagnostic[] => {
      const longest = names.map((n) => toolName(n, name)).sort((a, b) => b.length - a.length)[0]!;
      if (longest.length <= MAX_TOOL_NAME) return [];
      return [
        {
          code: 'RG400',
          severity: 'warning',
          message: `${c.name}: the MCP tool ${longest} has ${longest.length} characters, and MCP hosts take at most ${MAX_TOOL_NAME}; give the ${what} a shorter name (a collection's path: '...' keeps its URL), or leave MCP out with mcp: false.`,
          loc,
        },
      ];
    });
  });
}
