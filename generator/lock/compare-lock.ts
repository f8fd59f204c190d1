/**
 * @module The lock's judgement, used by `generate` and `check`: each released version is compared with
 * its locked contract. A breaking change is an RG180 error that names the change and the marker that
 * would make it properly, in a new version; a safe change updates the lock; `acceptBreaking` records a
 * deliberate break. A version enters the lock when it is first released.
 */
import { allTouches, diffApis } from '../diff/diff-apis.ts';
import { suggestNextVersion, sunsetPassed } from '../diff/diff-history.ts';
import { FindingCollector } from '../diff/collector.ts';
import type { Finding } from '../diff/types.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR, SourceRef } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { apiAtOfContract, contractOf, type VersionContract } from './contract.ts';
import { LOCK_FILE_NAME, serializeLock, type LockFile } from './lock-file.ts';

/** Options of {@link compareWithLock}. */
export interface CompareLockOptions {
  /** Record breaking changes in the lock instead of reporting them as errors (`--accept-breaking`). */
  readonly acceptBreaking?: boolean;
  /** `YYYY-MM-DD`: a deprecated version may leave the lock once its sunset has passed. Without it, it never has. */
  readonly today?: string;
}

/** What the lock says about the API. */
export interface LockComparison {
  /** RG180 errors, one per breaking change to a released version (none with `acceptBreaking`). */
  readonly diagnostics: readonly Diagnostic[];
  /** Changes that are allowed: safe and warning ones, plus breaking ones when accepted. */
  readonly findings: readonly Finding[];
  /** The lock to write: released versions added, allowed changes recorded, rejected ones left as locked. */
  readonly nextLock: LockFile;
  /** Whether `nextLock` differs from the lock given (a missing lock counts as different when anything is released). */
  readonly changed: boolean;
}

/** The marker (or fix) that makes a change properly, by rule. */
function properWay(id: string, location: string, next: string): string {
  const field = location.split('.').pop() ?? location;
  const rule = id.replace(/^(request|response)-/, '');
  const retype = `describe the old field with .typeChangedFrom('${next}', f.…) on ${field}`;
  const table: Record<string, string> = {
    'field-renamed': `keep the old name in this version: .renamedFrom('<old name>', '${next}') on ${field}`,
    'required-field-added': `add it in a new version: .addedIn('${next}') with a .default(...)`,
    'optional-field-added': `add it in a new version: .addedIn('${next}')`,
    'required-field-removed': `remove it in a new version: .removedIn('${next}', { fallback: ... })`,
    'optional-field-removed': `remove it in a new version: .removedIn('${next}')`,
    'field-became-required': `.madeRequiredIn('${next}') on ${field}`,
    'field-became-optional': `.madeOptionalIn('${next}') on ${field}`,
    'collection-added': `collection({...}).addedIn('${next}')`,
    'collection-removed': `collection({...}).removedIn('${next}') instead of deleting it`,
    'collection-path-changed': `collection({...}).renamedFrom('<old name>', '${next}')`,
    'collection-renamed': `collection({...}).renamedFrom('<old name>', '${next}')`,
    'operation-removed': `list it as { name: '<operation>', removedIn: '${next}' } in operations`,
    'operation-added': `list it as { name: '<operation>', addedIn: '${next}' } in operations`,
    'version-removed': `keep the version until its sunset has passed, or set deprecated and sunset dates first`,
    'version-unreleased': `restore its released date`,
    'version-sunset-moved-earlier': `keep the announced sunset date`,
  };
  for (const r of ['field-type', 'field-format', 'field-became', 'field-no-longer', 'enum-value', 'bound-', 'pattern-', 'default-changed', 'field-deprecated'])
    if (rule.startsWith(r) && !table[rule]) return retype;
  return table[rule] ?? `this setting is not versioned, so it cannot change in a released version; change it in '${next}' only by giving it its own collection, or run with --accept-breaking to record a deliberate break`;
}

function rg180(api: ApiIR, version: string, f: Finding, next: string): Diagnostic {
  const loc: SourceRef = f.loc && !f.loc.file.endsWith(LOCK_FILE_NAME) ? f.loc : { file: api.source, line: 1, member: 'defineApi', path: ['versions', version] };
  return {
    code: 'RG180',
    severity: 'error',
    message: `${version} is released and frozen, but ${f.message} (${f.id}, breaking); make the change in a new version: ${properWay(f.id, f.location, next)}; or pass --accept-breaking to record a deliberate break.`,
    loc,
  };
}

/** Compares every released version of `api` with `lock` (undefined: no lock yet). Pure. */
export function compareWithLock(api: ApiIR, lock: LockFile | undefined, options: CompareLockOptions = {}): LockComparison {
  const diagnostics: Diagnostic[] = [];
  const findings: Finding[] = [];
  const next: Record<string, VersionContract> = {};
  const locked = lock?.versions ?? {};
  for (const [name, contract] of Object.entries(locked)) {
    const version = api.versions.find((v) => v.name === name);
    if (!version) {
      const v = contract.version;
      const passed = Boolean(v.deprecated) && sunsetPassed(v.sunset, options.today);
      const out = new FindingCollector(name);
      const routes = allTouches(apiAtOfContract(api.name, contract, LOCK_FILE_NAME));
      const why = passed ? ` after its sunset (${v.sunset})` : v.sunset ? ` before its sunset (${v.sunset})` : ' although it was released';
      out.add(passed ? 'version-removed-after-sunset' : 'version-removed', name, `${name} was removed${why}`, { request: routes, response: routes });
      const [finding] = out.findings();
      if (finding?.level === 'breaking' && !options.acceptBreaking) {
        diagnostics.push({ ...rg180(api, name, finding, suggestNextVersion(api, name)), loc: { file: api.source, line: 1, member: 'defineApi', path: ['versions'] } });
        next[name] = contract;
      } else if (finding) findings.push(finding);
      continue;
    }
    const current = contractOf(api, name);
    if (serializeContract(current) === serializeContract(contract)) {
      next[name] = contract;
      continue;
    }
    const marker = suggestNextVersion(api, name);
    const changes = diffApis(apiAtOfContract(api.name, contract, LOCK_FILE_NAME), project(api, name), { match: 'name', markerVersion: marker, ...(options.today ? { today: options.today } : {}) });
    const breaking = changes.filter((f) => f.level === 'breaking');
    if (breaking.length && !options.acceptBreaking) {
      diagnostics.push(...breaking.map((f) => rg180(api, name, f, marker)));
      findings.push(...changes.filter((f) => f.level !== 'breaking'));
      next[name] = contract;
    } else {
      findings.push(...changes);
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
  const nextLock: LockFile = { lockfileVersion: 1, api: api.name, versions: ordered };
  const changed = lock ? serializeLock(lock) !== serializeLock(nextLock) : Object.keys(ordered).length > 0;
  return { diagnostics, findings, nextLock, changed };
}

function serializeContract(c: VersionContract): string {
  return serializeLock({ lockfileVersion: 1, api: '', versions: { v: c } });
}
