/**
 * @module The diff engine's data: findings, their levels and directions, options, and the rename resolver
 * that settles what cannot be decided mechanically (was a removal plus an addition a rename?).
 */
import type { FieldAt, SourceRef } from '../model/ir.ts';

/** How bad a change is: `breaking` fails a build, `warning` needs a human, `safe` is information. */
export type Level = 'breaking' | 'warning' | 'safe';

/** Levels from worst to least bad; index = rank. */
export const LEVELS: readonly Level[] = ['breaking', 'warning', 'safe'];

/** Which way the changed data flows: client to server, server to client, or both (a read-write field). */
export type Direction = 'request' | 'response' | 'both';

/** The routes and generated client methods a change touches. */
export interface Affects {
  /** `METHOD /vN/path`, e.g. `POST /v2/orders`, in operation order. */
  readonly routes: readonly string[];
  /** `version.collection.method`, e.g. `v2.orders.create`. */
  readonly client: readonly string[];
}

/** One thing that changed at a finding's location, with its values on both sides (absent = did not exist). */
export interface Change {
  /** What changed: `field`, `type`, `maxLength`, `operations`, `scopes.write`, `sunset`, ... */
  readonly aspect: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** What a marker names for a version the API does not declare yet and whose name restgen cannot propose. */
export const NEW_VERSION = '<new version>';

/** A suggestion that goes with a possible rename or move: the marker to write, and how sure the guess is. */
export interface Hint {
  /** The marker (or fix) to write, e.g. `.renamedFrom('qty', 'v2') on quantity`. */
  readonly marker: string;
  /** `high`: same type and similar names; `low`: the type changed too, or only the shape matches. */
  readonly confidence: 'high' | 'low';
}

/** One classified change. The JSON report carries every member except `loc` (given as `source`). */
export interface Finding {
  /** Stable kebab-case rule id, e.g. `request-field-became-required`. */
  readonly id: string;
  /** The level that counts: the rule's, or the one a severity override gave it. */
  readonly level: Level;
  /** The rule's own level, when a severity override changed it. */
  readonly ruleLevel?: Level;
  /** The version the change shows up in (the later side of the comparison). */
  readonly version: string;
  /** Dotted path from the collection (`orders.shipping.zip`), the collection (`orders`), or an API-wide key (`auth.bearer`, `v1`). */
  readonly location: string;
  readonly direction: Direction;
  /** One line, for humans. */
  readonly message: string;
  readonly affects: Affects;
  /** What changed, with before and after values (several when changes of one rule at one place were joined). */
  readonly changes: readonly Change[];
  /**
   * A stable hash of id, version, location and the changes: two distinct findings never share one, and
   * the same finding gets the same one on every run and machine (for baselines in CI).
   */
  readonly fingerprint: string;
  /** The builder call to point at (the marker or option that made the change), for annotations and diagnostics. */
  readonly loc?: SourceRef;
  /** The 1-based column of `loc`, filled in when a report locates its findings. */
  readonly column?: number;
  /** A change to a version that was not released at the base (`--base`): listed with its level, never fails. */
  readonly unreleased?: boolean;
  /** A deliberate break recorded in the lock (`generate --accept-breaking`): listed, never fails. */
  readonly accepted?: AcceptedBreak;
  /** The marker to write, for possible renames and moves. */
  readonly hint?: Hint;
}

/** A breaking change recorded as deliberate in `restgen.lock.json`. */
export interface AcceptedBreak {
  readonly fingerprint: string;
  readonly version: string;
  readonly id: string;
  readonly location: string;
  readonly message: string;
  /** Why it was accepted (optional, written by hand or by `--accept-breaking`). */
  readonly reason?: string;
  /** `YYYY-MM-DD` it was recorded. */
  readonly acceptedOn?: string;
}

/** A removed and an added field that might be one field renamed without a marker. */
export interface RenameCandidate {
  /** The version the change shows up in. */
  readonly version: string;
  /** Dotted path of the object both fields belong to (`orders`, `orders.shipping`). */
  readonly parent: string;
  readonly removed: FieldAt;
  readonly added: FieldAt;
  /** `high`: same base type and format; `low`: the names are alike but the type changed too. */
  readonly confidence: 'high' | 'low';
}

/**
 * What a removal plus an addition is: `rename` (one field renamed: one `field-renamed` finding),
 * `separate` (unrelated: a removal and an addition), or `possible` (unknown: both, plus a
 * `possible-undeclared-rename` warning with the marker to write).
 */
export type RenameDecision = 'rename' | 'separate' | 'possible';

/** Decides rename candidates. The CLI could prompt; tests pass fixed answers; the default says `possible`. */
export type RenameResolver = (candidate: RenameCandidate) => RenameDecision;

/** Options of the diff engine. */
export interface DiffOptions {
  /**
   * How fields and collections are paired: `key` (the newest name; both sides projected from one IR, so
   * declared renames are seen) or `name` (the name in that version; the sides come from different IRs).
   * Default `key`.
   */
  readonly match?: 'key' | 'name';
  /** Today's date, `YYYY-MM-DD`, to judge whether a sunset has passed. The engine never reads the clock. */
  readonly today?: string;
  /** Settles possible renames; default: every candidate is `possible`. */
  readonly resolveRename?: RenameResolver;
  /**
   * The version to name in marker hints (`.renamedFrom('old', 'v3')`); default: the later side's version.
   * `null`: no declared version can carry the marker (hints then say to add a version first).
   */
  readonly markerVersion?: string | null;
}

/** Severity overrides: a finding id (or a rule name, covering both its sides) mapped to a level, or `off` to drop it. */
export type SeverityOverrides = Readonly<Record<string, Level | 'off'>>;

/** One comparison a report holds: a pair of versions, or one version at the base and in the working tree. */
export interface Comparison {
  readonly from: string;
  readonly to: string;
  /** The version whose findings belong to this comparison (findings carry it as `version`). */
  readonly version: string;
}

/** A version and its lifecycle dates, for the report's timeline. */
export interface VersionInfo {
  readonly name: string;
  readonly released?: string;
  readonly deprecated?: string;
  readonly sunset?: string;
  /** The page that tells clients how to move off the version (its `docs`). */
  readonly docs?: string;
}

/** A derived webhook event type a version delivers, and the collection whose resource it carries (`account.created`, `accounts`). */
export interface DerivedEvent {
  readonly version: string;
  readonly type: string;
  readonly collection: string;
}

/** A diff report: what was compared and what was found. */
export interface DiffReport {
  /** A version or a git ref. */
  readonly from: string;
  /** A version, or `working tree`. */
  readonly to: string;
  readonly summary: { readonly breaking: number; readonly warning: number; readonly safe: number };
  readonly findings: readonly Finding[];
  /** The comparisons made, in order (one per pair of versions, or one per version with `--base`). */
  readonly comparisons: readonly Comparison[];
  /** The API's versions as the later side declares them, for timelines. */
  readonly versions: readonly VersionInfo[];
  /**
   * Between versions: the derived webhook events the later version of each comparison delivers, so that the
   * upgrade guide lists a collection's response changes under the events that carry its resource too.
   */
  readonly events?: readonly DerivedEvent[];
  /** The API's title, for report headings. */
  readonly api?: string;
  /** With `--base`: the commits compared (the ref as given and the commit it resolved to; HEAD and whether the tree had changes). */
  readonly git?: GitRefs;
}

/** The commits a `--base` report compared. */
export interface GitRefs {
  readonly base: { readonly ref: string; readonly commit: string };
  readonly head: { readonly commit: string | null; readonly dirty: boolean };
}

/** Operations (and transitions, `:<name>`), per side, in which a changed thing flows; an empty side is not affected. */
export interface Flow {
  readonly request: readonly string[];
  readonly response: readonly string[];
}
