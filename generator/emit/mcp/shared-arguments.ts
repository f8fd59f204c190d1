/**
 * @module The arguments every collection's tools share, declared once in `mcp/schemas.ts` beside the format schemas:
 * a resource's `id` and a list's `cursor` (their OpenAPI parameters' schemas), `ifMatch` and `idempotencyKey` (with
 * what they do in a tool). A tool's input schema refers to them as `#/mcp/<name>`, as it refers to the document's
 * schemas.
 */
import type { JsonObject } from '../openapi/json.ts';

/** The shared arguments, by the name of their constant. */
export const SHARED_ARGUMENTS = ['id', 'cursor', 'ifMatch', 'ifMatchRequired', 'createKey', 'transitionKey'] as const;

/** One of {@link SHARED_ARGUMENTS}. */
export type SharedArgument = (typeof SHARED_ARGUMENTS)[number];

/** How a tool's input schema refers to a shared argument. */
export const SHARED_REF = '#/mcp/';

const KEY = { type: 'string', minLength: 1, maxLength: 255 } as const;
const RUNS_ONCE = 'Calls with the same key run once: a repeat is answered the first result (for 24 hours by default).';
const IF_MATCH =
  'The ETag of the resource as last read (a get or a write gives it with its result): the call fails (412 precondition_failed) when the resource has changed since.';

/** The schema of a parameter as an argument: its schema with its description. */
function argumentOf(parameter: JsonObject | undefined): JsonObject {
  const schema = parameter?.['schema'];
  const description = parameter?.['description'];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || typeof description !== 'string')
    throw new Error('internal error: a shared parameter of the OpenAPI document has no schema or description');
  return { ...(schema as JsonObject), description };
}

/** Each shared argument's schema; `parameters` are the document's shared parameters (`Id`, `Cursor`), by component name. */
export function sharedArgumentSchemas(parameters: Readonly<Record<string, JsonObject>>): { readonly [K in SharedArgument]: JsonObject } {
  return {
    id: argumentOf(parameters['Id']),
    cursor: argumentOf(parameters['Cursor']),
    ifMatch: { type: 'string', description: IF_MATCH },
    ifMatchRequired: { type: 'string', description: `Required: writes of this collection are conditional. ${IF_MATCH}` },
    createKey: {
      ...KEY,
      description: `${RUNS_ONCE} Default: derived from the other arguments, so repeating a call creates nothing new; pass a new key to create another, identical resource.`,
    },
    transitionKey: { ...KEY, description: `${RUNS_ONCE} Default: a new key for each call.` },
  };
}
