/**
 * @module Which side of the wire a schema checks, for the emitters that write schemas (zod and OpenAPI), so both
 * draw the same line between what a client sends and what the server answers.
 */

/**
 * Where a schema is used. `response`: as the server answers (write-only fields left out, unknown keys allowed and
 * stripped). `request`: a body (read-only fields left out, unknown keys rejected, read-only fields and defaults
 * enforced inside nested objects).
 */
export type SchemaMode = 'response' | 'request';
