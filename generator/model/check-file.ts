/**
 * @module What a file field (`f.file({ maxBytes, types })`) can get wrong on its own: its options (RG410),
 * the modifiers and markers a file has no use for (RG412), and the places a file cannot be (RG411: inside an
 * object or an array, in a transition's input or an event's payload). A file is uploaded as a part of its
 * own, stored whole by the server's file store and downloaded at a path of its own, so it is always a
 * top-level field of a collection.
 */
import type { FieldDef } from '../dsl/defs.ts';
import { refOf, type DiagnosticBag } from './diagnostics.ts';
import type { FieldIR, SourceRef, TypeIR } from './ir.ts';

/** A media type as RFC 6838 names them (`type/subtype`), lower-case, without parameters or wildcards. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** Why each modifier means nothing on a file field. */
const NOT_FOR_FILES: Readonly<Record<string, string>> = {
  default: 'a file is uploaded, never filled in by the server',
  example: 'an example of a file is no literal value; describe it with .description()',
  unique: 'files are not compared for duplicates',
  filterable: 'a list cannot be filtered by a file',
  readOnly: 'a file field is uploaded by clients (the server has no way to make one)',
  writeOnly: 'an uploaded file is always downloadable from its own path',
  typeChangedFrom: 'a file never becomes another kind of value, nor another kind a file: add a new field instead',
  madeOptionalIn: 'older versions would require a file the server cannot make up; make it optional in every version instead',
};

/** The type of `f.file(...)`: its options checked (RG410), each problem at the call. */
export function fileTypeOf(def: FieldDef, where: string, ref: SourceRef, d: DiagnosticBag): TypeIR {
  const at = refOf(def.site, ref);
  const { maxBytes, types } = def;
  if (maxBytes === undefined)
    d.error('RG410', `${where}: f.file() needs maxBytes, the largest upload accepted in bytes, e.g. f.file({ maxBytes: 10_000_000, types: [...] }).`, at);
  else if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    d.error('RG410', `${where}: maxBytes ${String(maxBytes)} must be a whole number of bytes of at least 1.`, at);
  if (types === undefined || types.length === 0)
    d.error('RG410', `${where}: f.file() needs types, the media types an upload may have, e.g. types: ['application/pdf'].`, at);
  for (const [i, type] of (types ?? []).entries()) {
    if (types!.indexOf(type) !== i) d.error('RG410', `${where}: types lists '${type}' twice; keep one.`, at);
    else if (type.includes('*'))
      d.error('RG410', `${where}: types cannot hold the wildcard '${type}'; list each media type an upload may have ('image/png', 'image/jpeg').`, at);
    else if (!MEDIA_TYPE.test(type))
      d.error(
        'RG410',
        `${where}: '${type}' is not a media type; write it as type/subtype in lower case, without parameters (e.g. 'application/pdf', 'image/png').`,
        at,
      );
  }
  return { kind: 'file', maxBytes: maxBytes ?? 1, types: [...(types ?? [])] };
}

/** Reports the modifiers and markers of a file field that mean nothing on a file (RG412). */
export function checkFileModifiers(def: FieldDef, where: string, ref: SourceRef, d: DiagnosticBag): void {
  const called = new Set([...Object.keys(def.calls), ...def.markers.map((m) => m.kind)]);
  for (const [member, why] of Object.entries(NOT_FOR_FILES))
    if (called.has(member))
      d.error(
        'RG412',
        `${where}: .${member}() does not apply to f.file() (${why}); remove it.`,
        refOf(def.calls[member] ?? def.markers.find((m) => m.kind === member)?.site, ref),
      );
}

/** Where a field is declared, when it is not a collection's own top-level field. */
export type NotAFileHome = 'an object' | 'an array' | "a transition's input" | "an event's payload" | "a type change's old shape";

/** Reports a file where files cannot be (RG411): a file is a collection's top-level field. */
export function refuseFile(def: FieldDef | FieldIR, where: string, home: NotAFileHome, ref: SourceRef, d: DiagnosticBag): void {
  const kind = 'type' in def ? def.type.kind : def.kind;
  if (kind !== 'file') return;
  const at = 'loc' in def ? def.loc : refOf(def.site, ref);
  d.error(
    'RG411',
    `${where}: f.file() cannot be in ${home}; a file is uploaded as a part of its own and downloaded at a path of its own, so declare it as a field of the collection itself.`,
    at,
  );
}
