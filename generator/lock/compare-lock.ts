/**
 * @module The lock's judgement, used by `generate` and `check`: each released version is compared with
 * its locked contract. A breaking change is an RG180 error that names the change and the marker that
 * would make it properly, in a new version; a safe change updates the lock; `acceptBreaking` records a
 * deliberate break. A version enters the lock when it is first released.
 */
import { allTouches, diffApis } from '../diff/diff-apis.ts';
import { suggestNextVersion, sunsetPassed } from '../diff/diff-history.ts';
import { FindingCollector, stableJson } from '../diff/collector.ts';
import { applySeverity } from '../diff/gate.ts';
import { NEW_VERSION, type AcceptedBreak, type Finding, type SeverityOverrides } from '../diff/types.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR, SourceRef } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { apiAtOfContract, contractOf, type VersionContract } from './contract.ts';
import { LOCK_FILE_NAME, sameJson, serializeLock, type LockFile } from './lock-file.ts';

/** Options of {@link compareWithLock}. */
export interface CompareLockOptions {
  /** Record breaking changes in the lock instead of reporting them as errors (`--accept-breaking`). */
  readonly acceptBreaking?: boolean;
  /** `YYYY-MM-DD`: a deprecated version may leave the lock once its sunset has passed. Without it, it never has. Also the date an accepted break is recorded with. */
  readonly today?: string;
  /** Why the breaks accepted now are deliberate; recorded with each in the lock. */
  readonly acceptReason?: string;
  /** Severity overrides (the config file's `diff.severity`): a rule turned down to `warning` is no longer refused. */
  readonly severity?: SeverityOverrides;
}

/** What the lock says about the API. */
export interface LockComparison {
  /**
   * RG180 errors, one per breaking change, listing the released versions it breaks (none with `acceptBreaking`, none
   * for breaks the lock accepts).
   */
  readonly diagnostics: readonly Diagnostic[];
  /** Changes that are allowed: safe and warning ones, plus breaking ones when accepted (marked `accepted`). */
  readonly findings: readonly Finding[];
  /** The lock to write: released versions added, allowed changes recorded, rejected ones left as locked. */
  readonly nextLock: LockFile;
  /** Whether `nextLock` differs from the lock given (a missing lock counts as different when anything is released). */
  readonly changed: boolean;
}

/** The marker (or fix) that makes a change properly, by rule; `collection`: the collection the change is in, if any. */
function properWay(id: string, location: string, next: string, collection: string | undefined): string {
  const field = location.split('.').pop() ?? location;
  const rule = id.replace(/^(request|response)-/, '');
  const retype = `describe the old field with .typeChangedFrom('${next}', f.…) on ${field}`;
  const table: Record<string, string> = {
    'field-renamed': `keep the old name in this version: .renamedFrom('<old name>', '${next}') on ${field}`,
    'required-field-added': `add it with .addedIn('${next}') and a .default(...)`,
    'optional-field-added': `add it with .addedIn('${next}')`,
    'field-with-default-added': `add it with .addedIn('${next}')`,
    'required-field-removed': `remove it with .removedIn('${next}', { fallback: ... })`,
    'optional-field-removed': `remove it with .removedIn('${next}')`,
    'field-became-required': `.madeRequiredIn('${next}', { fallback: ... }) on ${field}`,
    'field-became-optional': `.madeOptionalIn('${next}') on ${field}`,
    'collection-added': `collection({...}).addedIn('${next}')`,
    'collection-removed': `collection({...}).removedIn('${next}') instead of deleting it`,
    'collection-path-changed': `collection({...}).renamedFrom('<old name>', '${next}')`,
    'collection-renamed': `collection({...}).renamedFrom('<old name>', '${next}')`,
    'operation-removed': `list it as { name: '<operation>', removedIn: '${next}' } in operations`,
    'operation-added': `list it as { name: '<operation>', addedIn: '${next}' } in operations`,
    'operation-no-longer-public': `keep it public until '${next}': list it as { name: '<operation>', removedIn: '${next}' } in public`,
    'event-removed': `keep sending it until '${next}': list it as { name: '<event>', removedIn: '${next}' } in the collection's events (a custom event: removedIn: '${next}')`,
    'version-removed': `keep the version until its sunset has passed, or set deprecated and sunset dates first`,
    'version-unreleased': `restore its released date`,
    'version-sunset-moved-earlier': `keep the announced sunset date`,
    'transition-removed': `keep the transition and add removedIn: '${next}' to it`,
    'transition-from-narrowed': `keep the transition as it is until '${next}' (removedIn: '${next}') and add one with the new states (addedIn: '${next}')`,
    'transition-target-changed': `keep the transition as it is until '${next}' (removedIn: '${next}') and add one with the new target (addedIn: '${next}')`,
  };
  for (const r of ['field-type', 'field-format', 'field-became', 'field-no-longer', 'enum-value', 'bound-', 'pattern-', 'default-changed', 'field-deprecated'])
    if (rule.startsWith(r) && !table[rule]) return retype;
  if (table[rule]) return table[rule];
  // Not versioned: the setting holds in every version (of the API, or of its collection).
  const unversioned = 'this setting is not versioned, so it cannot change while a released version has it; keep it as it is';
  return collection === undefined
    ? unversioned
    : `${unversioned}, or serve the changed ${collection} as a new collection from '${next}' (the old one with .removedIn('${next}'), the new one with .addedIn('${next}') and the same path)`;
}

/**
 * The rename hints among a comparison's findings, by the location of the removed and of the added field: a
 * field renamed without a marker shows up as a removal plus an addition, and each of those refusals should
 * say that a rename marker is the likely fix.
 */
function renameHints(findings: readonly Finding[]): Map<string, string> {
  const hints = new Map<string, string>();
  for (const f of findings) {
    const name = f.changes.find((c) => c.aspect === 'name');
    if (f.id !== 'possible-undeclared-rename' || !f.hint || !name) continue;
    const parent = f.location.slice(0, f.location.lastIndexOf('.'));
    hints.set(`${parent}.${String(name.before)}`, f.hint.marker);
    hints.set(f.location, f.hint.marker);
  }
  return hints;
}

/** A breaking change the lock refuses, in one released version. */
interface Refusal {
  readonly version: string;
  readonly finding: Finding;
  /** The version a marker names (see `suggestNextVersion`). */
  readonly next: string;
  /** The rename marker, when the change may be a rename without one. */
  readonly renameHint?: string;
  /** Where to point instead of the finding's own location (a removed version: at `versions`). */
  readonly loc?: SourceRef;
}

/** `v1`, `v1 and v2`, `v1, v2 and v3`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The RG180 errors of the refusals: one per change, listing every released version it breaks (the same change
 * refused in v1, v2 and v3 is one error, not three). When the version a marker names is not declared yet, the
 * message says to add it first, once.
 */
function rg180(api: ApiIR, refusals: readonly Refusal[]): Diagnostic[] {
  const groups = new Map<string, Refusal[]>();
  for (const r of refusals) {
    const f = r.finding;
    const key = [f.id, f.location, f.message, stableJson(f.changes)].join('\u0000');
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  // In the API's order of versions, whatever the lock's order.
  const rank = (r: Refusal) => api.versions.findIndex((v) => v.name === r.version);
  return [...groups.values()].map((unordered) => {
    const group = [...unordered].sort((a, b) => rank(a) - rank(b));
    const { finding: f, renameHint } = group[0]!;
    const versions = group.map((r) => r.version);
    // The newest version the change breaks decides which version the marker names.
    const { next, version } = group.at(-1)!;
    const loc: SourceRef =
      group[0]!.loc ??
      (f.loc && !f.loc.file.endsWith(LOCK_FILE_NAME)
        ? f.loc
        : { ...(api.loc ?? { file: api.source, line: 1, member: 'defineApi' }), path: ['versions', version] });
    const declared = api.versions.some((v) => v.name === next);
    const first = declared
      ? ''
      : next === NEW_VERSION
        ? ` (add one after ${api.versions.at(-1)?.name} to versions first; '${NEW_VERSION}' below is its name)`
        : ` (add '${next}' to versions first)`;
    const collection = api.collections.find((c) => c.name === f.location.split('.')[0])?.name;
    const fix = `${renameHint ? `if this is a rename, write ${renameHint}; otherwise ` : ''}${properWay(f.id, f.location, next, collection)}`;
    return {
      code: 'RG180',
      severity: 'error',
      message: `${listed(versions)} ${versions.length === 1 ? 'is' : 'are'} released and frozen, but ${f.message} (${f.id}, breaking); make the change in a new version${first}: ${fix}; or pass --accept-breaking to record a deliberate break.`,
      loc,
    };
  });
}

/** RG181 at the API's name: the lock beside the module is the lock of the API named `owner`. */
function foreignLock(api: ApiIR, owner: string): Diagnostic {
  return {
    code: 'RG181',
    severity: 'error',
    message:
      `${LOCK_FILE_NAME} beside this module is the lock of the API '${owner}', not of '${api.name}': the lock is kept beside the API module, so each API module needs a folder of its own; ` +
      `move this module (and its lock, if it has one elsewhere) into a folder of its own. If you renamed the API, set "api": "${api.name}" in ${LOCK_FILE_NAME}.`,
    loc: { ...(api.loc ?? { file: api.source, line: 1, member: 'defineApi' }), path: ['name'] },
  };
}

/** Compares every released version of `api` with `lock` (undefined: no lock yet). Pure. */
export function compareWithLock(api: ApiIR, lock: LockFile | undefined, options: CompareLockOptions = {}): LockComparison {
  // Another API's lock (two modules in one folder share the file beside them): judging this API against it would
  // report its versions as removed, and --accept-breaking would overwrite it with this API's.
  if (lock && lock.api !== api.name) return { diagnostics: [foreignLock(api, lock.api)], findings: [], nextLock: lock, changed: false };
  const refusals: Refusal[] = [];
  const findings: Finding[] = [];
  const next: Record<string, VersionContract> = {};
  const locked = lock?.versions ?? {};
  const accepted = new Map((lock?.accepted ?? []).map((a) => [a.fingerprint, a]));
  /** A breaking finding the lock already accepts, or accepts now: marked; else undefined. */
  const accept = (f: Finding): Finding | undefined => {
    const known = accepted.get(f.fingerprint);
    if (known) return { ...f, accepted: known };
    if (!options.acceptBreaking) return undefined;
    const entry: AcceptedBreak = {
      fingerprint: f.fingerprint,
      version: f.version,
      id: f.id,
      location: f.location,
      message: f.message,
      ...(options.acceptReason ? { reason: options.acceptReason } : {}),
      ...(options.today ? { acceptedOn: options.today } : {}),
    };
    accepted.set(f.fingerprint, entry);
    return { ...f, accepted: entry };
  };
  for (const [name, contract] of Object.entries(locked)) {
    const version = api.versions.find((v) => v.name === name);
    if (!version) {
      const v = contract.version;
      const passed = Boolean(v.deprecated) && sunsetPassed(v.sunset, options.today);
      const out = new FindingCollector(name);
      const routes = allTouches(apiAtOfContract(api.name, contract, LOCK_FILE_NAME));
      const why = passed ? ` after its sunset (${v.sunset})` : v.sunset ? ` before its sunset (${v.sunset})` : ' although it was released';
      out.add(passed ? 'version-removed-after-sunset' : 'version-removed', name, `${name} was removed${why}`, { request: routes, response: routes });
      const [finding] = applySeverity(out.findings(), options.severity ?? {});
      const allowed = finding?.level === 'breaking' ? accept(finding) : finding;
      if (finding && !allowed) {
        refusals.push({
          version: name,
          finding,
          next: suggestNextVersion(api, name),
          loc: { ...(api.loc ?? { file: api.source, line: 1, member: 'defineApi' }), path: ['versions'] },
        });
        next[name] = contract;
      } else if (allowed) findings.push(allowed);
      continue;
    }
    if (sameJson(contractOf(api, name), contract)) {
      next[name] = contract;
      continue;
    }
    const current = contractOf(api, name);
    // The version a marker names: the first unreleased one after this version, else the one to add (which the
    // error says to add first): hints and fixes all name the same one.
    const marker = suggestNextVersion(api, name);
    const diffed = diffApis(apiAtOfContract(api.name, contract, LOCK_FILE_NAME), project(api, name), {
      match: 'name',
      markerVersion: marker,
      ...(options.today ? { today: options.today } : {}),
    });
    const changes = applySeverity(diffed, options.severity ?? {});
    const refused = changes.filter((f) => f.level === 'breaking' && !accepted.has(f.fingerprint));
    if (refused.length && !options.acceptBreaking) {
      const hints = renameHints(changes);
      for (const f of refused) {
        const renameHint = hints.get(f.location);
        refusals.push({ version: name, finding: f, next: marker, ...(renameHint ? { renameHint } : {}) });
      }
      findings.push(...changes.filter((f) => f.level !== 'breaking' || accepted.has(f.fingerprint)).map((f) => (f.level === 'breaking' ? accept(f)! : f)));
      next[name] = contract;
    } else {
      findings.push(...changes.map((f) => (f.level === 'breaking' ? accept(f)! : f)));
      next[name] = current;
    }
  }
  for (const v of api.versions) {
    if (!v.released || v.name in locked) continue;
    next[v.name] = contractOf(api, v.name);
    const out = new FindingCollector(v.name);
    const routes = allTouches(project(api, v.name));
    out.add('version-released', v.name, `${v.name} was released on ${v.released}; its contract is now locked`, { request: routes, response: routes });
    findings.push(...out.findings());
  }
  const ordered: Record<string, VersionContract> = {};
  for (const v of api.versions) if (next[v.name]) ordered[v.name] = next[v.name]!;
  for (const [name, c] of Object.entries(next)) ordered[name] ??= c;
  // Accepted breaks stay recorded while their version is in the lock (a version removed from it, deliberately or after
  // its sunset, takes its entries with it: nothing is left to judge); sorted so the lock's bytes depend only on them.
  const keep = [...accepted.values()].filter((a) => a.version in ordered);
  keep.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  const nextLock: LockFile = { lockfileVersion: 1, api: api.name, versions: ordered, ...(keep.length ? { accepted: keep } : {}) };
  const changed = lock ? !keepsLock(lock, nextLock) && serializeLock(lock) !== serializeLock(nextLock) : Object.keys(ordered).length > 0;
  return { diagnostics: rg180(api, refusals), findings, nextLock, changed };
}

/** True, without serialising anything, when `next` keeps every version of `lock` as it was read and adds none. */
function keepsLock(lock: LockFile, next: LockFile): boolean {
  const names = Object.keys(next.versions);
  return (
    lock.api === next.api &&
    names.length === Object.keys(lock.versions).length &&
    names.every((name) => lock.versions[name] === next.versions[name]) &&
    JSON.stringify(lock.accepted ?? []) === JSON.stringify(next.accepted ?? [])
  );
}
