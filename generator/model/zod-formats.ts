/**
 * @module The regular expressions zod 4 checks the string formats with, as `z.toJSONSchema` gives them for
 * `z.iso.datetime({ offset: true })`, `z.iso.date()`, `z.uuid()` and `z.email()`. Kept as text so that
 * generating an API never loads zod (about 0.1 s of module loading per run); a test reads them from the zod
 * restgen depends on and fails when an upgrade of zod changes one, so the two cannot drift apart.
 */

/** A string format whose pattern zod checks with a regular expression. */
export type ZodFormat = 'datetime' | 'date' | 'uuid' | 'email';

/** zod's pattern per format, exactly as `z.toJSONSchema(...).pattern` reads. */
export const ZOD_FORMAT_PATTERNS: { readonly [K in ZodFormat]: string } = {
  datetime:
    '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$',
  date: '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$',
  uuid: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
  email: "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
};
