/**
 * @module The messages and markers of possible renames: a field renamed without `renamedFrom` (with or
 * without a type change), a collection renamed, an enum value renamed, a field moved into or out of a nested
 * object. A hint names only a version the API
 * declares; when none can carry the marker, it says to add one first.
 */
import type { FieldAt, SourceRef } from '../model/ir.ts';
import type { FindingCollector, Touches } from './collector.ts';
import { describeType, signatureOf } from './type-names.ts';
import { NEW_VERSION, type Hint } from './types.ts';

/** A field removed from the object at `path`, with the routes it flowed through and where to point. */
export interface Removal {
  readonly path: string;
  readonly field: FieldAt;
  readonly touches: Touches;
  readonly loc: SourceRef;
}

/** A field added to the object at `path`. */
export type Addition = Removal;

/** What a possible rename reports: its message and its hint. */
export interface RenameHint {
  readonly message: string;
  readonly hint: Hint;
}

/** Builder source for a field's old shape, for `typeChangedFrom` hints: `f.int()`, `f.enum(['a', 'b'])`. */
function builderOf(f: FieldAt): string {
  const t = f.type;
  const base =
    t.kind === 'enum'
      ? `f.enum([${t.values.map((v) => `'${v}'`).join(', ')}])`
      : t.kind === 'ref'
        ? `f.ref('${t.collection}')`
        : t.kind === 'array' || t.kind === 'object'
          ? `f.${t.kind}(…)`
          : `f.${t.kind}()`;
  return `${base}${f.optional ? '.optional()' : ''}${f.nullable ? '.nullable()' : ''}`;
}

/** The hint for field `b` (removed) and `a` (added) in the object at `path`. */
export function hintRename(path: string, b: FieldAt, a: FieldAt, confidence: 'high' | 'low', version: string | null): RenameHint {
  const retype = confidence === 'low' ? `.typeChangedFrom('${version ?? NEW_VERSION}', ${builderOf(b)})` : '';
  const marker = `.renamedFrom('${b.name}', '${version ?? NEW_VERSION}')${retype}`;
  const where = version ? `declare it on ${a.name} with ${marker}` : `add a version to versions first, then declare it on ${a.name} with ${marker}`;
  const what =
    confidence === 'high'
      ? `${path}.${b.name} was removed and ${path}.${a.name} added with the same type`
      : `${path}.${b.name} (${describeType(b.type)}) was removed and ${path}.${a.name} (${describeType(a.type)}) added with a similar name but another type (a less certain guess)`;
  return { message: `${what}; if it is a rename, ${where}`, hint: { marker: version ? `${marker} on ${a.name}` : `${where}`, confidence } };
}

/** The hint for a collection `before` removed and `after` added with the same fields. */
export function hintCollectionRename(before: string, after: string, version: string | null): RenameHint {
  const marker = `collection({...}).renamedFrom('${before}', '${version ?? NEW_VERSION}')`;
  const where = version ? `declare it on ${after} with ${marker}` : `add a version to versions first, then declare it on ${after} with ${marker}`;
  return {
    message: `${before} was removed and ${after} added with the same fields; if it is a rename, ${where}`,
    hint: { marker: version ? `${marker} on ${after}` : where, confidence: 'high' },
  };
}

/** The hint for enum value `before` replaced by `after` at `path`. */
export function hintEnumRename(
  path: string,
  before: string,
  after: string,
  oldValues: readonly string[],
  confidence: 'high' | 'low',
  version: string | null,
): RenameHint {
  const field = path.split('.').pop()!.replace(/\[\]$/, '');
  const old = `f.enum([${oldValues.map((v) => `'${v}'`).join(', ')}])`;
  const marker = version
    ? `keep '${before}' as a value, or describe the change on ${field} with .typeChangedFrom('${version}', ${old})`
    : `keep '${before}' as a value, or add a version to versions first and describe the change there with .typeChangedFrom('${NEW_VERSION}', ${old})`;
  return {
    message: `${path}: enum value '${before}' was removed and '${after}' added: renamed? Clients sending '${before}' now fail and responses carry '${after}'; ${marker}`,
    hint: { marker, confidence },
  };
}

/** Every field of an added or removed object, with its path: a field can move into an object added with it. */
function flatten(entries: readonly (Removal | Addition)[]): (Removal | Addition)[] {
  const out: (Removal | Addition)[] = [];
  const walk = (e: Removal | Addition) => {
    out.push(e);
    let t = e.field.type;
    while (t.kind === 'array') t = t.of;
    if (t.kind === 'object')
      for (const child of t.fields) walk({ ...e, path: `${e.path}.${e.field.name}${e.field.type.kind === 'array' ? '[]' : ''}`, field: child });
  };
  entries.forEach(walk);
  return out;
}

/**
 * A field removed from one object and one of the same name and type added in an object inside it (or the
 * other way round) is probably a move. Markers cannot move a field, so the hint says how to keep older
 * versions whole.
 */
export function reportMoves(
  out: FindingCollector,
  markerVersion: string | null,
  afterVersion: string,
  removals: readonly Removal[],
  additions: readonly Addition[],
): void {
  const gone = flatten(removals);
  const came = flatten(additions);
  for (const r of gone)
    for (const a of came) {
      if (r.field.name !== a.field.name || signatureOf(r.field.type) !== signatureOf(a.field.type)) continue;
      const inward = a.path.startsWith(`${r.path}.`);
      const outward = r.path.startsWith(`${a.path}.`);
      if (!inward && !outward) continue;
      const from = `${r.path}.${r.field.name}`;
      const to = `${a.path}.${a.field.name}`;
      const v = markerVersion;
      const marker = v
        ? `keep ${from} in older versions with .removedIn('${v}'${r.field.optional ? '' : ', { fallback }'}) and add ${to} with .addedIn('${v}')`
        : `add a version after ${afterVersion} to versions first, then keep ${from} there with .removedIn('${NEW_VERSION}') and add ${to} with .addedIn('${NEW_VERSION}')`;
      out.add(
        'possible-field-move',
        to,
        `${from} was removed and ${to} added with the same type: moved ${inward ? 'into' : 'out of'} a nested object? Clients must send and read it in its new place; ${marker}`,
        { request: [...r.touches.request, ...a.touches.request], response: [...r.touches.response, ...a.touches.response] },
        a.loc,
        { aspect: 'path', before: from, after: to },
        { marker, confidence: 'high' },
      );
    }
}
