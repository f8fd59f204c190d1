/**
 * @module zod's internals as this runtime reads them, typed by zod's own declarations (`zod/v4/core`): a schema's
 * definition (`_zod.def`, told apart by `type`), its checks' definitions (told apart by `check`), its absence rungs
 * (`optin`, `optout`), its traits and its enum values. The fast paths (`checked-read.ts`, `checked-text.ts`), the key
 * tree (`shape.ts`) and the relaxed schemas of older data (`older-data.ts`) read nothing else, so a zod release
 * that renames or reshapes one of them fails to compile here instead of answering wrongly.
 */
import type * as core from 'zod/v4/core';

/** Every schema zod makes (string formats such as `z.uuid()` and number formats such as `z.int()` included). */
export type Schema = core.$ZodTypes | core.$ZodStringFormatTypes | core.$ZodNumberFormat;

/** A schema's definition: `switch (def.type)` narrows it to that kind's. */
export type SchemaDef = Schema['_zod']['def'];

/** Every check zod makes (`.max()`, `.regex()`, the checks a format schema is). */
export type Check = core.$ZodChecks | core.$ZodStringFormatChecks;

/** A check's definition: `switch (def.check)` narrows it to that check's. */
export type CheckDef = Check['_zod']['def'];

/**
 * `schema` as one of zod's own schemas. Every schema is made by zod's constructors, whose kinds this union
 * lists; one of another library reads as its `def.type`, which no reader here takes (they leave it to zod).
 */
export const schemaOf = (schema: core.$ZodType): Schema => schema as Schema;

/** The definition of `schema`. */
export const defOf = (schema: core.$ZodType): SchemaDef => schemaOf(schema)._zod.def;

/**
 * Whether an absent key of `schema` takes a default (`optin: 'defaulted'`, a rung later zod 4 releases added; zod
 * 4.0 calls a default `optional` too, so there it is never true, and the readers take the default as 4.0 does).
 */
export const isDefaulted = (schema: Schema): boolean => (schema._zod.optin as string | undefined) === 'defaulted';

/** The definition of `check`, one of the checks of a schema's `def.checks`. */
export const checkDefOf = (check: core.$ZodCheck<never>): CheckDef => (check as Check)._zod.def;
