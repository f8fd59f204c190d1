/**
 * @module Builds a collection's `lifecycle` into a {@link LifecycleIR} and checks what it can get wrong on
 * its own: the state field (a required read-only enum), states that the field does not have, transition
 * names, `from` lists, scopes, rate limits and input fields. Rules that need the versions (states and
 * transitions added later, reachability) are in `check-lifecycle.ts`.
 */
import { describeValue } from '../dsl/arguments.ts';
import { buildField, type FieldContext } from './build-field.ts';
import { refuseFile } from './check-file.ts';
import { fieldEntries } from './check-builders.ts';
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import { OPERATIONS, type FieldIR, type LifecycleIR, type OperationIR, type RateLimitIR, type SourceRef, type TransitionIR } from './ir.ts';

/** A transition after its options' shape was checked; the values its own rules check stay `unknown`. */
interface CheckedTransition {
  readonly from?: unknown;
  readonly to?: unknown;
  readonly input?: Readonly<Record<string, unknown>>;
  readonly scopes?: string | readonly string[];
  readonly rateLimit?: { readonly limit?: unknown; readonly window?: unknown };
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly description?: string;
}

/** `lifecycle` after its shape was checked. */
export interface CheckedLifecycle {
  readonly field?: string;
  readonly initial?: unknown;
  readonly transitions?: Readonly<Record<string, CheckedTransition | undefined>>;
}

/** What building a lifecycle needs of its collection. */
export interface LifecycleContext extends FieldContext {
  /** The collection's name, for messages. */
  readonly where: string;
  /** The `collection({...})` call: paths into its options point at the property at fault. */
  readonly ref: SourceRef;
  readonly fields: readonly FieldIR[];
  /** Fields written with a mistake of their own, already reported: the lifecycle does not blame them again. */
  readonly faulty: ReadonlySet<string>;
  readonly operations: readonly OperationIR[];
  readonly hasAuth: boolean;
  readonly rateLimitOf: (def: CheckedTransition['rateLimit'], where: string, ref: SourceRef) => RateLimitIR | undefined;
}

/** Transition names must be identifiers that start lower-case (they name client methods and `:verb` paths). */
const TRANSITION_NAME = /^[a-z][A-Za-z0-9]*$/;
/**
 * Names a transition cannot take: the operations (handlers and client methods share a namespace), `then`
 * (a thenable namespace would confuse `await`), and what every JavaScript object inherits (a handler object
 * that lacks the transition would seem to have it).
 */
const INHERITED = ['constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString', 'valueOf'];
const RESERVED: ReadonlySet<string> = new Set([...OPERATIONS, 'then', ...INHERITED]);

/** Why a reserved name cannot be a transition. */
function clashOf(name: string): string {
  if (name === 'then') return 'promises (a namespace with a then method is awaited by mistake)';
  if (INHERITED.includes(name)) return 'a method every JavaScript object has (a handler object without it would seem to have it)';
  return `the ${name} operation (handlers and client methods share one namespace)`;
}

const scopeList = (value: string | readonly string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? [value] : [...value];

/** The states of the lifecycle field (its newest enum values), or undefined when the field is not fit to hold states. */
function stateField(lc: CheckedLifecycle, ctx: LifecycleContext): FieldIR | undefined {
  const d = ctx.diagnostics;
  const at = atPath(ctx.ref, ['lifecycle', 'field']);
  const name = lc.field ?? '';
  const field = ctx.fields.find((f) => f.name === name);
  // The field's own mistake was reported (a builder not called, an enum given a string): one mistake, one diagnostic.
  if (ctx.faulty.has(name)) return field?.type.kind === 'enum' ? field : undefined;
  if (!field) {
    const names = ctx.fields.map((f) => f.name).join(', ');
    d.error(
      'RG320',
      `${ctx.where}: lifecycle.field '${name}' is not a field of the collection (it has ${names}); name the read-only enum field that holds the state.`,
      at,
    );
    return undefined;
  }
  const wrong = [
    field.type.kind !== 'enum' ? `an f.enum([...]) (it is ${field.type.kind})` : '',
    !field.readOnly ? 'read-only (.readOnly(): only transitions change it)' : '',
    field.optional ? 'required (not .optional())' : '',
    field.nullable ? 'not nullable' : '',
  ].filter(Boolean);
  if (wrong.length > 0) {
    d.error('RG321', `${ctx.where}.${name} holds the lifecycle's state, so it must be ${wrong.join(', ')}.`, field.loc);
    return field.type.kind === 'enum' ? field : undefined;
  }
  return field;
}

/** A state name as written, or undefined (reported) when it is not a string or not a state. */
function stateOf(value: unknown, states: readonly string[] | undefined, what: string, ctx: LifecycleContext, path: readonly string[]): string | undefined {
  const at = atPath(ctx.ref, ['lifecycle', ...path]);
  if (typeof value !== 'string') {
    ctx.diagnostics.error('RG175', `${ctx.where}: lifecycle.${path.join('.')} must be a state name (got ${describeValue(value)}).`, at);
    return undefined;
  }
  if (states && !states.includes(value)) {
    ctx.diagnostics.error(
      'RG322',
      `${ctx.where}: ${what} '${value}' is not a state; the states are the values of the lifecycle field: ${states.join(', ')}.`,
      at,
    );
    return undefined;
  }
  return value;
}

function buildTransition(name: string, t: CheckedTransition, states: readonly string[] | undefined, ctx: LifecycleContext): TransitionIR | undefined {
  const d = ctx.diagnostics;
  const path = ['transitions', name];
  const loc: SourceRef = atPath(ctx.ref, ['lifecycle', ...path]);
  const where = `${ctx.where}:${name}`;
  if (!TRANSITION_NAME.test(name))
    d.error(
      'RG325',
      `${ctx.where}: transition '${name}' must be an identifier starting with a lower-case letter (letters and digits, like cancel or markShipped): it names a client method and the path /{id}:${name}.`,
      loc,
    );
  else if (RESERVED.has(name)) d.error('RG325', `${ctx.where}: transition '${name}' clashes with ${clashOf(name)}; choose another name.`, loc);
  else if (name === 'download' && ctx.fields.some((f) => f.type.kind === 'file'))
    d.error('RG325', `${ctx.where}: transition 'download' clashes with the client's download method of the collection's files; choose another name.`, loc);
  const fromPath = ['lifecycle', ...path, 'from'];
  let from: string[] = [];
  if (!Array.isArray(t.from))
    d.error('RG175', `${where}: from must be an array of states, e.g. from: ['open'] (got ${describeValue(t.from)}).`, atPath(ctx.ref, fromPath));
  else if (t.from.length === 0) d.error('RG326', `${where}: from is empty; list the states the transition starts from.`, atPath(ctx.ref, fromPath));
  else {
    from = t.from.flatMap((s: unknown, i: number) => stateOf(s, states, `transition ${name}: from`, ctx, [...path, 'from', String(i)]) ?? []);
    const twice = from.find((s, i) => from.indexOf(s) !== i);
    if (twice !== undefined) d.error('RG326', `${where}: from lists '${twice}' twice; keep one.`, atPath(ctx.ref, fromPath));
  }
  const to = stateOf(t.to, states, `transition ${name}: to`, ctx, [...path, 'to']);
  const scopes = scopeList(t.scopes);
  if (scopes && scopes.length > 0 && !ctx.hasAuth)
    d.error(
      'RG111',
      `${where}: scopes are declared but the API has no auth; add auth: { oauth2: {...} } (or bearer, or apiKey) to defineApi, or remove the scopes.`,
      atPath(loc, [...loc.path!, 'scopes']),
    );
  const fctx: FieldContext = { ...ctx, fallback: loc };
  const input = fieldEntries(t.input ?? {}, where, ctx.ref, d, ['lifecycle', ...path, 'input']).map(([fname, def]) =>
    buildField(fname, def, `${where}.${fname}`, fctx, 'elsewhere'),
  );
  for (const f of input) {
    checkInputField(f, `${where}.${f.name}`, d);
    refuseFile(f, `${where}.${f.name}`, "a transition's input", loc, d);
  }
  const known = (v: string | undefined, member: 'addedIn' | 'removedIn'): v is string => {
    if (v === undefined) return false;
    if (ctx.versions.includes(v)) return true;
    d.error('RG150', `${where}: ${member} '${v}' names an unknown version; the API declares ${ctx.versions.join(', ')}.`, atPath(loc, [...loc.path!, member]));
    return false;
  };
  const rateLimit = ctx.rateLimitOf(t.rateLimit, where, atPath(loc, [...loc.path!, 'rateLimit']));
  if (to === undefined || from.length === 0) return undefined;
  return {
    kind: 'transition',
    name,
    from: [...new Set(from)],
    to,
    input,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(known(t.addedIn, 'addedIn') ? { addedIn: t.addedIn } : {}),
    ...(known(t.removedIn, 'removedIn') ? { removedIn: t.removedIn } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    loc,
  };
}

/** Modifiers that mean nothing in a transition's input (a request body that is never stored or answered as such). */
function checkInputField(f: FieldIR, where: string, d: DiagnosticBag): void {
  const pointless: [boolean, string, string][] = [
    [f.readOnly, 'readOnly', 'an input is only ever sent by the client'],
    [f.writeOnly, 'writeOnly', 'an input is never answered anyway'],
    [f.unique, 'unique', 'inputs are not stored, so nothing is unique among them'],
    [f.filterable, 'filterable', 'inputs are not resources, nothing lists them'],
    [f.sortable !== false, 'sortable', 'inputs are not resources, nothing lists them'],
    [f.expandable !== false, 'expandable', 'inputs are not answered, nothing expands them'],
  ];
  for (const [on, member, why] of pointless)
    if (on) d.error('RG141', `${where}: .${member}() means nothing in a transition's input (${why}); remove it.`, f.calls[member] ?? f.loc);
  if (f.type.kind === 'id') d.error('RG141', `${where}: f.id() names the collection's own id; in an input use f.ref('collection') or f.uuid().`, f.loc);
  for (const t of f.typeChanges)
    d.error(
      'RG330',
      `${where}: typeChangedFrom('${t.version}') is not supported in a transition's input (the server would need a hook to convert old inputs); add a new transition in ${t.version} and remove the old one there instead.`,
      t.loc,
    );
}

/** What building a lifecycle gives: its IR when it could be built, and what the rules after it may still rely on. */
export interface BuiltLifecycle {
  /** The lifecycle, or undefined when its field or initial state is at fault (reported). */
  readonly ir?: LifecycleIR;
  /** The states (the lifecycle field's values), when the field is one that holds states. */
  readonly states?: readonly string[];
  /**
   * False when the lifecycle holds a mistake (reported): its IR may lack transitions the user wrote, so rules that
   * judge other declarations against it (events named after states, states no transition reaches) stay quiet.
   */
  readonly complete: boolean;
}

const incomplete = new WeakSet<LifecycleIR>();

/** Whether `lc` was built without a mistake, so that every transition written is in it (see {@link BuiltLifecycle.complete}). */
export function isComplete(lc: LifecycleIR): boolean {
  return !incomplete.has(lc);
}

/** Builds `lifecycle` of a collection; every problem is reported. */
export function buildLifecycle(lc: CheckedLifecycle, ctx: LifecycleContext): BuiltLifecycle {
  const before = ctx.diagnostics.errorCount;
  const field = stateField(lc, ctx);
  const states = field?.type.kind === 'enum' ? field.type.values : undefined;
  const initial = stateOf(lc.initial, states, 'initial state', ctx, ['initial']);
  const transitions: TransitionIR[] = [];
  for (const [name, t] of Object.entries(lc.transitions ?? {})) {
    if (!t) continue;
    const built = buildTransition(name, t, states, ctx);
    if (built) transitions.push(built);
  }
  if (!ctx.operations.some((op) => op.name === 'get') && Object.keys(lc.transitions ?? {}).length > 0)
    ctx.diagnostics.error(
      'RG329',
      `${ctx.where}: a lifecycle needs the get operation: a transition loads the resource with the get handler to check its state; add 'get' to operations.`,
      atPath(ctx.ref, ['operations']),
    );
  const complete = ctx.diagnostics.errorCount === before;
  const known = states ? { states } : {};
  if (!field || initial === undefined || field.type.kind !== 'enum') return { ...known, complete: false };
  const ir: LifecycleIR = { kind: 'lifecycle', field: field.name, initial, transitions, loc: atPath(ctx.ref, ['lifecycle']) };
  if (!complete) incomplete.add(ir);
  return { ir, ...known, complete };
}
