/**
 * @module The run-time mirror of the DSL's option types (`defineApi({...})`, `collection({...})` and what
 * they contain): every key a type does not declare is RG176, every value of the wrong kind RG175, each at
 * the property that holds it. An API module may be plain JavaScript, or never type-checked, so nothing
 * the user wrote is trusted to match its type. What passes comes back with the bad parts left out, so
 * building can go on and report every other mistake of the run.
 */
import { describeValue } from '../dsl/arguments.ts';
import { atPath, type DiagnosticBag, type DiagnosticCode } from './diagnostics.ts';
import { OAUTH_FLOWS, type SourceRef } from './ir.ts';

/** What a value in the options must be. `later`: a rule of its own checks it (with a more precise message). */
export type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'later' }
  | { readonly kind: 'string-or-list' }
  | { readonly kind: 'list'; readonly of: Shape }
  | { readonly kind: 'record'; readonly of: Shape }
  | { readonly kind: 'object'; readonly keys: Readonly<Record<string, Shape>>; readonly required?: readonly string[] };

/** A string. */
export const str: Shape = { kind: 'string' };
/** `true` or `false`. */
export const bool: Shape = { kind: 'boolean' };
/** Anything: a rule of its own checks the value. */
export const later: Shape = { kind: 'later' };
/** An array of `of`. */
export const list = (of: Shape): Shape => ({ kind: 'list', of });
/** An object with any keys, each value `of`. */
export const record = (of: Shape): Shape => ({ kind: 'record', of });
/** An object with exactly these keys (those in `required` must be there). */
export const object = (keys: Record<string, Shape>, required?: readonly string[]): Shape => ({ kind: 'object', keys, ...(required ? { required } : {}) });

/** The codes a shape check reports: a value of the wrong kind (or missing), and an unknown key. */
export interface ShapeCodes {
  readonly wrongKind: DiagnosticCode;
  readonly unknownKey: DiagnosticCode;
}

const DSL_CODES: ShapeCodes = { wrongKind: 'RG175', unknownKey: 'RG176' };

const RATE_LIMIT = object({ limit: later, window: later });

/** One OAuth 2.0 flow: its URLs (`refreshUrl` always optional), the others required; the values are checked by RG300. */
const flow = (urls: readonly string[]): Shape => object(Object.fromEntries([...urls, 'refreshUrl'].map((u) => [u, later])), urls);

/** `auth.oauth2`: flows as OpenAPI names them, and described scopes. */
const OAUTH2 = object(
  {
    flows: object(Object.fromEntries(Object.entries(OAUTH_FLOWS).map(([kind, urls]) => [kind, flow(urls)]))),
    scopes: record(str),
    description: str,
  },
  ['flows'],
);

/** `defineApi({...})`. Adding an option to the DSL adds one line here. */
export const API_OPTIONS: Shape = object(
  {
    name: later,
    title: str,
    description: str,
    versions: record(
      object({ released: later, deprecated: later, sunset: later, brownouts: list(object({ start: later, end: later }, ['start', 'end'])), docs: later }),
    ),
    versioning: object({ in: later, header: later, default: later }),
    auth: object({ bearer: object({ description: str }), apiKey: object({ header: later, description: str }), oauth2: OAUTH2 }),
    rateLimit: RATE_LIMIT,
    formats: later,
    collections: record(later),
    events: record(object({ payload: record(later), description: str, addedIn: str, removedIn: str }, ['payload'])),
    webhooks: object({ scopes: object({ read: { kind: 'string-or-list' }, write: { kind: 'string-or-list' } }) }),
    mcp: bool,
    servers: list(object({ url: later, description: str }, ['url'])),
    openapi: object({ implicitMethods: bool }),
  },
  ['collections'],
);

/** One transition of `lifecycle.transitions`. */
const TRANSITION = object(
  {
    from: later,
    to: later,
    input: record(later),
    scopes: { kind: 'string-or-list' },
    rateLimit: RATE_LIMIT,
    addedIn: str,
    removedIn: str,
    description: str,
  },
  ['from', 'to'],
);

/** `collection({...})`. */
export const COLLECTION_OPTIONS: Shape = object(
  {
    fields: record(later),
    path: str,
    singular: str,
    description: str,
    operations: list(later),
    scopes: object({ read: { kind: 'string-or-list' }, write: { kind: 'string-or-list' } }),
    rateLimit: RATE_LIMIT,
    public: list(later),
    pagination: object({ defaultLimit: later, maxLimit: later }),
    defaultSort: str,
    lifecycle: object({ field: str, initial: later, transitions: record(TRANSITION) }, ['field', 'initial', 'transitions']),
    requireIfMatch: bool,
    events: list(later),
  },
  ['fields'],
);

/** One entry of `operations` written as an object: `{ name: 'delete', addedIn: 'v2' }`. */
export const OPERATION_ENTRY: Shape = object({ name: later, addedIn: str, removedIn: str }, ['name']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How a message names what each kind of shape takes. */
const EXPECTED: { readonly [K in Shape['kind']]: string } = {
  string: 'a string',
  boolean: 'true or false',
  'string-or-list': 'a string or an array of strings',
  list: 'an array',
  record: 'an object',
  object: 'an object',
  later: 'a value',
};

/** The number of single-character edits between two words, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The known name closest to `name`, when it is close enough to be a typo. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).sort((x, y) => x.d - y.d);
  const best = scored[0];
  if (best && best.d <= Math.max(1, Math.floor(name.length / 3))) return best.k;
  // A known name with something added or cut off (`outDir` for `out`, `oper` for `operations`).
  return known.find((k) => k.length >= 3 && lower.length >= 3 && (lower.startsWith(k.toLowerCase()) || k.toLowerCase().startsWith(lower)));
}

/**
 * Checks `value` against `shape` and returns what passed (undefined when nothing did). `where` names the
 * owner in messages (`defineApi`, `orders`); `ref` is the call the options were passed to, and `path` the
 * property names from its first argument down to `value`.
 */
export function checkShape(
  value: unknown,
  shape: Shape,
  where: string,
  ref: SourceRef,
  d: DiagnosticBag,
  path: readonly string[] = [],
  codes: ShapeCodes = DSL_CODES,
): unknown {
  const recurse = (v: unknown, inner: Shape, p: readonly string[]) => checkShape(v, inner, where, ref, d, p, codes);
  const at = atPath(ref, path);
  const name = path.length > 0 ? path.join('.') : 'the options';
  const wrong = () => {
    d.error(codes.wrongKind, `${where}: ${name} must be ${EXPECTED[shape.kind]} (got ${describeValue(value)}).`, at);
    return undefined;
  };
  switch (shape.kind) {
    case 'later':
      return value;
    case 'string':
      return typeof value === 'string' ? value : wrong();
    case 'boolean':
      return typeof value === 'boolean' ? value : wrong();
    case 'string-or-list':
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string')) ? value : wrong();
    case 'list':
      return Array.isArray(value) ? value.map((item, i) => recurse(item, shape.of, [...path, String(i)])) : wrong();
    case 'record':
      if (!isRecord(value)) return wrong();
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, recurse(v, shape.of, [...path, k])]));
    case 'object': {
      if (!isRecord(value)) return wrong();
      const known = Object.keys(shape.keys);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const inner = shape.keys[k];
        if (!inner) {
          const guess = closest(k, known);
          d.error(
            codes.unknownKey,
            `${where}: unknown option '${k}'${guess ? ` (did you mean '${guess}'?)` : ''}; ${path.length > 0 ? `${name} takes` : 'the options are'} ${known.join(', ')}.`,
            atPath(ref, [...path, k]),
          );
          continue;
        }
        if (v === undefined) continue;
        const checked = recurse(v, inner, [...path, k]);
        if (checked !== undefined) out[k] = checked;
      }
      for (const k of shape.required ?? [])
        if (value[k] === undefined) d.error(codes.wrongKind, `${where}: ${path.length > 0 ? `${name}.` : ''}${k} is missing; it is required.`, at);
      return out;
    }
  }
}
