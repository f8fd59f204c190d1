/**
 * Schema helpers shared by every version's zod schemas: read-only fields (a lifecycle's state among them),
 * the numbers of a query string, the list limit and the list envelope.
 */
import { z } from "zod";

/** A field the server sets: any value sent for it is rejected. */
export const readOnly = z
  .never({ error: "read-only: set by the server, do not send it" })
  .optional();

/**
 * A lifecycle's state field: read-only, changed only by transitions. The message names the transition
 * that leads to the state sent (`byTarget`: state -> transitions), else every transition of `route`.
 */
export const lifecycleState = (
  route: string,
  byTarget: Readonly<Record<string, readonly string[]>>,
) => {
  const verbs = (names: readonly string[]) =>
    `POST ${route}${names.map((n, i) => `${i === 0 ? "" : i === names.length - 1 ? " or " : ", "}:${n}`).join("")}`;
  const all = [...new Set(Object.values(byTarget).flat())];
  return z
    .never({
      error: (issue) => {
        const to =
          typeof issue.input === "string" &&
          Object.hasOwn(byTarget, issue.input)
            ? byTarget[issue.input]
            : undefined;
        if (to !== undefined)
          return `read-only: set by the server; to move to ${JSON.stringify(issue.input)} use ${verbs(to)}`;
        return all.length > 0
          ? `read-only: set by the server; it changes only through ${verbs(all)}`
          : "read-only: set by the server, do not send it";
      },
    })
    .optional();
};

/**
 * A number in a query string, in plain decimal notation only (`12`, `-3`, `2.5`): no hex (`0x10`),
 * exponent (`1e3`), blank or surrounding spaces, all of which `Number()` would accept. A number passes as is.
 */
export const queryNumber = z.union([
  // Text first: a query string holds nothing else, and a union tries its options in order.
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, { error: "expected a number in decimal digits" })
    .transform(Number),
  z.number(),
]);

/**
 * `?limit=`: a whole number of at least 1 in decimal digits; values above the maximum (however many
 * digits) are lowered to it.
 */
export const listLimit = (byDefault: number, max: number) =>
  z
    .union([
      z
        .string()
        .regex(/^\d+$/, { error: "expected a whole number in decimal digits" })
        // However many digits: a number too large to hold is still above the maximum.
        .transform((s) => Math.min(Number(s), Number.MAX_SAFE_INTEGER)),
      z.int(),
    ])
    .pipe(z.number().min(1))
    .default(byDefault)
    .transform((n) => Math.min(n, max));

/** A page of a list: the items and the cursor of the next page (null on the last). */
export const listPage = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });

/** What the server keeps of an uploaded file: its metadata, and the key of its content in the file store. */
export interface StoredFile {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly key: string;
}

/**
 * The mark the server puts on a file it stored from a part of a multipart body. JSON and XML cannot carry
 * a symbol, so no request body can forge a file that points at stored content.
 */
const UPLOADED = Symbol.for("restgen.uploaded-file");

/** A file field of a request: a part of a multipart/form-data body, stored by the server. */
export const fileUpload = z.custom<StoredFile>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    (value as { [UPLOADED]?: unknown })[UPLOADED] === true,
  { error: "send a file here: a part of a multipart/form-data body" },
);

/** A file field of an answer: the upload's metadata and the path it is downloaded from. */
export const fileMeta = z.object({
  name: z.string(),
  type: z.string(),
  size: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  href: z.string(),
});
/** How a message quotes what a client sent (at most 40 characters of it). */
const quoted = (text: string) =>
  JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);

/**
 * `?genre[in]=poetry,drama`: comma-separated values, each read by `item` (so a value cannot hold a comma);
 * at least one, at most 100.
 */
export const queryList = <T extends z.ZodType>(item: T) =>
  z
    .string()
    // Each value is the item's to read (a number from its digits, say).
    .transform((s): unknown[] => s.split(","))
    .pipe(
      z
        .array(item)
        .min(1)
        .max(100, { error: "at most 100 comma-separated values" }),
    );

/**
 * `?fields=id,title` and `?expand=author`: comma-separated names out of `names`, each kept once, in the
 * order given. An unknown name is refused, with the names there are (`what` names them in the message).
 */
export const queryNames = <const K extends string>(
  names: readonly [K, ...K[]],
  what: string,
) =>
  z.string().transform((text, ctx) => {
    const out: K[] = [];
    for (const name of text.split(",")) {
      if (!(names as readonly string[]).includes(name)) {
        ctx.addIssue({
          code: "custom",
          message: `unknown ${what} ${quoted(name)}; the ${what}s are ${names.join(", ")}`,
          params: { allowed: names },
        });
        return z.NEVER;
      }
      if (!out.includes(name as K)) out.push(name as K);
    }
    return out;
  });

/** `?fields=`: the names of a map of field schemas (those a response shows). */
export const queryFields = <F extends object>(fields: F) =>
  queryNames(
    Object.keys(fields) as [
      Extract<keyof F, string>,
      ...Extract<keyof F, string>[],
    ],
    "field",
  );

/**
 * `?sort=-published,title`: comma-separated sort keys out of `keys`, `-` before a descending one, each once.
 * An unknown or repeated key is refused, with the keys there are.
 */
export const querySort = <const K extends string>(
  keys: readonly [K, ...K[]],
) => {
  const allowed = keys.flatMap((k) => [k, `-${k}`]);
  // What each sort key a client may write stands for, looked up once per key sent.
  const named = new Map<string, { field: K; direction: "asc" | "desc" }>();
  for (const field of keys) {
    named.set(field, { field, direction: "asc" });
    named.set(`-${field}`, { field, direction: "desc" });
  }
  return z.string().transform((text, ctx) => {
    const out: { field: K; direction: "asc" | "desc" }[] = [];
    for (const part of text.includes(",") ? text.split(",") : [text]) {
      const key = named.get(part);
      if (key === undefined || out.some((k) => k.field === key.field)) {
        const message =
          key === undefined
            ? `unknown sort key ${quoted(part)}; the list sorts by ${allowed.join(", ")}`
            : `sorts by ${key.field} twice; name each key once`;
        ctx.addIssue({ code: "custom", message, params: { allowed } });
        return z.NEVER;
      }
      out.push({ field: key.field, direction: key.direction });
    }
    return out;
  });
};
