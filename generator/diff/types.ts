/**
 * @module The diff engine's data: findings, their levels and directions, options, and the rename resolver
 * that settles what cannot be decided mechanically (was a removal plus an addition a rename?).
 */
import type { FieldAt, OperationName, SourceRef } from '../model/ir.ts';

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

/** One classified change. The JSON report carries every member except `loc`. */
export interface Finding {
  /** Stable kebab-case rule id, e.g. `request-field-became-required`. */
  readonly id: string;
  readonly level: Level;
  /** The version the change shows up in (the later side of the comparison). */
  readonly version: string;
  /** Dotted path from the collection (`orders.shipping.zip`), the collection (`orders`), or an API-wide key (`auth.bearer`, `v1`). */
  readonly location: string;
  readonly direction: Direction;
  /** One line, for humans. */
  readonly message: string;
  readonly affects: Affects;
  /** A stable hash of id + location, for baselines and de-duplication in CI. */
  readonly fingerprint: string;
  /** The builder call to point at (later side when it exists there), for annotations and diagnostics. */
  readonly loc?: SourceRef;
}

/** A removed and an added field that might be one field renamed without a marker. */
export interface RenameCandidate {
  /** The version the change shows up in. */
  readonly version: string;
  /** Dotted path of the object both fields belong to (`orders`, `orders.shipping`). */
  readonly parent: string;
  readonly removed: FieldAt;
  readonly added: FieldAt;
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
  /** The version to name in marker hints (`.renamedFrom('old', 'v3')`); default: the later side's version. */
  readonly markerVersion?: string;
}

/** A diff report: what was compared and what was found. */
export interface DiffReport {
  /** A version or a git ref. */
  readonly from: string;
  /** A version, or `working tree`. */
  readonly to: string;
  readonly summary: { readonly breaking: number; readonly warning: number; readonly safe: number };
  readonly findings: readonly Finding[];
}

/** Operations, per side, in which a changed thing flows; an empty side is not affected. */
export interface Flow {
  readonly request: readonly OperationName[];
  readonly response: readonly OperationName[];
}
