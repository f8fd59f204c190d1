/**
 * @module Diagnostics are data: a stable code, a message that says what is wrong and how to fix it, and
 * where. They are collected and reported together; nothing is thrown one by one.
 */
import type { CallSite } from '../dsl/defs.ts';
import type { SourceRef } from './ir.ts';

/** Every diagnostic code restgen reports, with what it means. Codes never change meaning. */
export const DIAGNOSTIC_CODES = {
  RG001: 'the API module could not be loaded',
  RG002: 'the API module does not export a defineApi() result',
  RG100: 'invalid API name',
  RG101: 'no versions',
  RG102: 'invalid version name',
  RG103: 'invalid date',
  RG104: 'version dates out of order',
  RG105: 'unreleased version before a released one',
  RG106: 'invalid versioning',
  RG107: 'version name taken by generated files',
  RG110: 'invalid API key header',
  RG111: 'scopes without auth',
  RG112: 'public operation not offered',
  RG113: 'invalid rate limit',
  RG114: 'invalid pagination',
  RG115: 'unknown operation',
  RG116: 'duplicate operation',
  RG120: 'invalid collection name',
  RG121: 'duplicate collection path',
  RG122: 'collection without an id field',
  RG123: 'collection with several id fields',
  RG124: 'invalid collection path',
  RG125: 'collection names that differ only in case',
  RG130: 'invalid field name',
  RG131: 'min greater than max',
  RG132: 'invalid bound',
  RG133: 'invalid pattern',
  RG134: 'pattern with flags',
  RG135: 'invalid enum',
  RG136: 'field both readOnly and writeOnly',
  RG137: 'default fails its own constraints',
  RG138: 'example fails its own constraints',
  RG139: 'ref to an unknown collection',
  RG140: 'ref to a collection missing in a version',
  RG141: 'modifier not allowed here',
  RG150: 'unknown version in a marker',
  RG151: 'removed before it was added',
  RG152: 'rename onto an existing name',
  RG153: 'invalid rename',
  RG154: 'required field removed without a fallback',
  RG155: "fallback fails the field's constraints",
  RG156: 'required field without a default in an older version',
  RG157: 'madeOptionalIn on a required field',
  RG158: 'madeRequiredIn on an optional field',
  RG159: 'conflicting markers',
  RG160: 'marker outside the versions the field exists in',
  RG162: 'typeChangedFrom with markers on the old field',
  RG163: 'marker on the first version',
  RG164: 'nested field change the server cannot migrate',
  RG165: "madeRequiredIn fallback fails the field's constraints",
  RG166: 'madeRequiredIn fallback on a field with a default',
  RG167: 'madeRequiredIn fallback on a read-only field',
  RG170: 'a builder that was not called',
  RG171: 'a value where collection() belongs',
  RG172: 'a value where a field builder belongs',
  RG173: 'an argument of the wrong kind',
  RG174: 'a modifier the field kind does not have',
  RG175: 'an option of the wrong kind, or a required option missing',
  RG176: 'an unknown option',
  RG177: 'arguments a builder does not take',
  RG190: 'a pattern restgen derives no example from, and no example() is given',
  RG180: 'breaking change to a released version',
  RG181: 'restgen.lock.json cannot be read',
  RG300: 'an OAuth 2.0 flow URL that is not absolute https',
  RG301: 'OAuth 2.0 without a flow',
  RG302: 'an invalid OAuth 2.0 scope name',
  RG303: 'a scope not declared in auth.oauth2.scopes',
  RG304: 'both bearer and oauth2 declared',
  RG305: 'an OAuth 2.0 scope no operation requires (warning)',
  RG320: 'lifecycle.field names no field of the collection',
  RG321: 'the lifecycle field is not a required read-only enum',
  RG322: 'a lifecycle state that the field does not have',
  RG323: 'the initial state is added in a later version',
  RG324: 'a lifecycle state no transition leads to',
  RG325: 'an invalid transition name',
  RG326: 'a transition without from states, or with one twice',
  RG327: 'a transition in a version that lacks its states',
  RG328: 'the lifecycle field does not exist unchanged in every version',
  RG329: 'a lifecycle without the get operation',
  RG330: 'typeChangedFrom on a transition input field',
  RG331: 'valueAddedIn names a value the enum does not have',
  RG332: 'valueAddedIn without a usable fallback',
  RG333: 'valueAddedIn names a version where the field does not have this enum',
  RG334: 'a default or example that older versions do not have',
  RG340: "a filter operator the field's kind cannot take",
  RG341: 'an invalid filterable({ ops }) entry',
  RG342: 'sortable() on a field whose kind has no order',
  RG343: 'a write-only field marked filterable, sortable or expandable',
  RG344: 'expandable() on a field that is not a ref',
  RG345: 'an expandable ref to a collection the version cannot read',
  RG346: 'an invalid defaultSort',
  RG347: 'a filterable field named like a list query parameter',
  RG348: "filterable, sortable or expandable on a field that is not a collection's own",
  RG350: 'an event name a collection without transitions cannot have',
  RG351: 'an event of a transition that does not exist',
  RG352: "an event listed twice, or a custom event with a derived event's type",
  RG353: 'an invalid custom event type',
  RG355: 'a modifier that means nothing in an event payload',
  RG356: 'a payload field change the server cannot migrate for older subscribers',
  RG359: 'an event of an operation the collection does not offer',
  RG360: 'webhook_endpoints or events is taken by a collection',
  RG361: 'webhooks options without events',
  RG380: "a brownout outside the version's [deprecated, sunset) period",
  RG381: 'a brownout window that is not two instants, start before end',
  RG382: 'brownout windows of one version that overlap',
  RG383: "a version's docs URL that is not absolute https",
  RG384: 'versioning.default names an unknown or unreleased version',
  RG385: 'versioning.default with path versioning',
  RG386: 'date-named versions not declared in date order',
  RG390: 'a server URL that is not an absolute http(s) URL',
  RG391: 'servers empty, or a server listed twice',
  RG400: 'an MCP tool name longer than MCP hosts accept (warning)',
  RG410: 'invalid f.file() options',
  RG411: 'a file field where files cannot be',
  RG412: 'a modifier or marker a file field cannot have',
  RG413: 'a file field in a collection without the get operation',
  RG414: 'invalid formats',
  RG200: 'a file in the output folder was not generated by restgen',
  RG201: 'invalid template override',
  RG202: 'the output folder is the file system root or on a kernel file system',
  RG210: 'the config file cannot be loaded',
  RG211: 'a config value of the wrong kind',
  RG212: 'an unknown config option',
  RG213: 'an unknown part to generate',
  RG214: 'the output folder is a file',
  RG215: 'a package the generated code imports is missing from package.json',
  RG216: 'an unknown finding id in the diff settings',
  RG217: 'several config files',
  RG218: 'the templates folder does not exist',
  RG219: 'the installed @restgen/runtime does not fit the generated server',
  RG220: 'the generated code (ES modules) lands in a CommonJS package',
} as const;

/** A diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** One problem found in the user's API module. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning';
  /** What is wrong and how to fix it, in one or two sentences. */
  readonly message: string;
  readonly loc?: SourceRef;
  /** Resolved 1-based column, filled in by `locateDiagnostics` when the report is made. */
  readonly column?: number;
}

/** Collects diagnostics while a stage runs. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  error(code: DiagnosticCode, message: string, loc: SourceRef | undefined): void {
    this.items.push({ code, severity: 'error', message, ...(loc ? { loc } : {}) });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  /** How many errors were reported so far: a stage compares it before and after a part to tell whether that part failed. */
  get errorCount(): number {
    return this.items.filter((d) => d.severity === 'error').length;
  }
}

/**
 * A {@link SourceRef} for a recorded call site, or for `fallback` when the call was not recorded. The line
 * is read from the call site only when the ref's `line` is read: resolving it is the costly part of a
 * call site (see `dsl/call-site.ts`), and most refs are never printed.
 */
export function refOf(site: CallSite | undefined, fallback: SourceRef, path?: readonly string[]): SourceRef {
  return site ? lazyRef(site, path) : lazyRef(fallback, path ?? fallback.path);
}

/** `ref` narrowed to the property at `path` inside its call, its line still resolved lazily (unlike a spread). */
export function atPath(ref: SourceRef, path: readonly string[]): SourceRef {
  return lazyRef(ref, path);
}

function lazyRef(from: SourceRef | CallSite, path: readonly string[] | undefined): SourceRef {
  // A frozen source (the stand-in site of a load without call sites, or a ref made from one) has a line that never
  // changes: it is copied, and the copy frozen in turn. A getter costs a closure per ref, and a model built without
  // call sites makes one for nearly every field; only a live call site resolves its line on demand.
  if (Object.isFrozen(from))
    return Object.freeze(path ? { file: from.file, line: from.line, member: from.member, path } : { file: from.file, line: from.line, member: from.member });
  // Two literals rather than a spread: refs are made for every field, and a spread copies through a temporary.
  return path
    ? {
        file: from.file,
        get line(): number {
          return from.line;
        },
        member: from.member,
        path,
      }
    : {
        file: from.file,
        get line(): number {
          return from.line;
        },
        member: from.member,
      };
}
