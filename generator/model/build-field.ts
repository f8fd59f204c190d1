/**
 * @module Turns field defs into {@link FieldIR}: normalises markers (sorted, unknown versions reported)
 * and checks what a single field can get wrong on its own.
 */
import { FIELD_KINDS, type FieldDef, type MarkerDef } from '../dsl/defs.ts';
import { checkQueryShape, queryShapeOf } from './build-query.ts';
import { checkKindMembers, reportSlips } from './check-builders.ts';
import { checkFileModifiers, fileTypeOf, refuseFile } from './check-file.ts';
import { refOf } from './diagnostics.ts';
import type { FieldContext } from './field-context.ts';
import type { EnumValueAdded, FieldIR, FieldShape, Rename, SourceRef, TypeIR } from './ir.ts';
import { KINDS, kindOf } from './kinds.ts';
export type { FieldContext } from './field-context.ts';
import { withArticle } from './names.ts';
import { exampleOfPattern } from './pattern-example.ts';
import { checkFieldValue } from './values.ts';

/**
 * Where a field is written: a collection's own field (which a list may filter, sort and expand by), a field of a
 * nested object, or elsewhere (a transition's input, an event's payload: their builders report what means
 * nothing there).
 */
export type FieldPlace = 'collection' | 'nested' | 'elsewhere';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Kinds whose bounds count something (characters, items): whole numbers of at least 0. */
const LENGTH_KINDS: ReadonlySet<string> = new Set(FIELD_KINDS.filter((k) => KINDS[k].bounds === 'length' || KINDS[k].bounds === 'items'));

/** True for a valid field or collection name (a JavaScript identifier). */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

function typeOf(def: FieldDef, where: string, ctx: FieldContext, ref: SourceRef): TypeIR {
  const d = ctx.diagnostics;
  const at = (member: string) => refOf(def.calls[member], ref);
  reportSlips(def.slips, where, refOf(def.site, ref), d);
  // Bounds and patterns on a kind without them were reported (RG174) and are left out from here on.
  const has = checkKindMembers(def, where, ref, d);
  const bound = (member: 'min' | 'max'): number | undefined => (has.has(member) ? def[member] : undefined);
  const [min, max] = [bound('min'), bound('max')];
  if (min !== undefined && max !== undefined && min > max)
    d.error('RG131', `${where}: min(${min}) is greater than max(${max}); swap them or remove one.`, at('max'));
  for (const member of ['min', 'max'] as const) {
    const n = bound(member);
    if (n === undefined) continue;
    if (!Number.isFinite(n) || (LENGTH_KINDS.has(def.kind) && (!Number.isInteger(n) || n < 0)))
      d.error('RG132', `${where}: ${member}(${n}) must be ${LENGTH_KINDS.has(def.kind) ? 'a whole number of at least 0' : 'a finite number'}.`, at(member));
    else if (def.kind === 'int' && !Number.isInteger(n)) d.error('RG132', `${where}: ${member}(${n}) on an int field must be an integer.`, at(member));
  }
  const b = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  switch (def.kind) {
    case 'string': {
      if (def.pattern !== undefined) {
        try {
          new RegExp(def.pattern, 'u');
        } catch (e) {
          d.error('RG133', `${where}: pattern /${def.pattern}/ is not a valid regular expression (${(e as Error).message}).`, at('pattern'));
        }
        if (def.patternFlags)
          d.error(
            'RG134',
            `${where}: pattern flags "${def.patternFlags}" are not supported (JSON Schema patterns have none); write the pattern without flags, e.g. [Aa] instead of /a/i.`,
            at('pattern'),
          );
      }
      return { kind: 'string', ...b, ...(def.pattern !== undefined ? { pattern: def.pattern } : {}) };
    }
    case 'int':
    case 'number':
      return { kind: def.kind, ...b };
    case 'enum': {
      const values = def.values ?? [];
      const dup = values.find((v, i) => values.indexOf(v) !== i);
      if (values.length === 0 || values.some((v) => typeof v !== 'string' || v === ''))
        d.error('RG135', `${where}: f.enum() needs at least one non-empty string value.`, refOf(def.site, ref));
      else if (dup !== undefined) d.error('RG135', `${where}: enum value "${dup}" is listed twice; remove the duplicate.`, refOf(def.site, ref));
      const added = enumAdditions(def, values, where, ctx, ref);
      return { kind: 'enum', values: [...values], ...(added.length > 0 ? { added } : {}) };
    }
    case 'ref':
      return { kind: 'ref', collection: def.ref ?? '' };
    case 'array': {
      const of = def.of;
      if (!of) return { kind: 'array', of: { kind: 'string' }, ...b };
      checkItem(of, `${where}[]`, ctx, ref);
      refuseFile(of, `${where}[]`, 'an array', ref, d);
      // f.array(f.string().nullable()): the items may be null (the array itself is nullable with .nullable() on it).
      return { kind: 'array', of: typeOf(of, `${where}[]`, ctx, refOf(of.site, ref)), ...b, ...(of.nullable ? { itemsNullable: true } : {}) };
    }
    case 'object':
      for (const [name, child] of Object.entries(def.fields ?? {})) refuseFile(child, `${where}.${name}`, 'an object', ref, d);
      return {
        kind: 'object',
        fields: Object.entries(def.fields ?? {}).map(([name, child]) => buildField(name, child, `${where}.${name}`, ctx, 'nested')),
      };
    case 'file':
      return fileTypeOf(def, where, ref, d);
    case 'boolean':
    case 'datetime':
    case 'date':
    case 'uuid':
    case 'email':
    case 'url':
    case 'id':
      return { kind: def.kind };
  }
}

/** The `valueAddedIn` calls of an enum, checked on their own (versions, value, fallback); whole-API rules are in check.ts. */
function enumAdditions(def: FieldDef, values: readonly string[], where: string, ctx: FieldContext, ref: SourceRef): EnumValueAdded[] {
  const out: EnumValueAdded[] = [];
  for (const a of def.valuesAdded ?? []) {
    const loc = refOf(a.site, ref);
    const call = `valueAddedIn('${a.version}', '${a.value}')`;
    if (versionIndex(ctx, a.version) < 0) {
      ctx.diagnostics.error('RG150', `${where}: ${call} names an unknown version; the API declares ${ctx.versions.join(', ')}.`, loc);
      continue;
    }
    if (versionIndex(ctx, a.version) === 0) {
      ctx.diagnostics.error('RG163', `${where}: ${call} names the first version, which has no earlier version to differ from; remove the marker.`, loc);
      continue;
    }
    if (!values.includes(a.value)) {
      ctx.diagnostics.error(
        'RG331',
        `${where}: ${call} names a value the enum does not have (${values.join(', ')}); add it to f.enum([...]) or fix the name.`,
        loc,
      );
      continue;
    }
    if (out.some((x) => x.value === a.value)) {
      ctx.diagnostics.error('RG159', `${where}: valueAddedIn() is given twice for '${a.value}'; keep one.`, loc);
      continue;
    }
    const fallback = a.fallback;
    if (fallback === undefined || !values.includes(fallback) || fallback === a.value) {
      const why =
        fallback === undefined
          ? 'has no fallback'
          : fallback === a.value
            ? 'falls back to itself'
            : `falls back to '${fallback}', which is not a value of the enum`;
      const others = values
        .filter((v) => v !== a.value)
        .map((v) => `'${v}'`)
        .join(', ');
      ctx.diagnostics.error(
        'RG332',
        `${where}: ${call} ${why}; older versions show the fallback where the value is stored: give one of ${others}, e.g. { fallback: ${others.split(', ')[0] ?? "'...'"} }.`,
        loc,
      );
      continue;
    }
    out.push({ value: a.value, version: a.version, fallback, loc });
  }
  return out.sort((x, y) => versionIndex(ctx, x.version) - versionIndex(ctx, y.version));
}

/** Array items are values, not fields: modifiers and markers on them mean nothing. */
function checkItem(item: FieldDef, where: string, ctx: FieldContext, ref: SourceRef): void {
  const misplaced = ['optional', 'default', 'readOnly', 'writeOnly', 'unique', 'filterable', 'sortable', 'expandable', 'deprecated'].filter(
    (m) => m in item.calls,
  );
  for (const m of misplaced)
    ctx.diagnostics.error('RG141', `${where}: .${m}() has no meaning on an array item; put it on the array field instead.`, refOf(item.calls[m], ref));
  for (const marker of item.markers)
    ctx.diagnostics.error('RG141', `${where}: version markers go on the array field, not on its items.`, refOf(marker.site, ref));
  if (item.kind === 'id')
    ctx.diagnostics.error('RG141', `${where}: f.id() cannot be an array item; use f.ref('collection') or f.uuid().`, refOf(item.site, ref));
}

function shapeOf(def: FieldDef, where: string, ctx: FieldContext, ref: SourceRef): FieldShape {
  return {
    ...queryShapeOf(def, where, ctx, ref),
    type: typeOf(def, where, ctx, ref),
    optional: def.optional === true,
    nullable: def.nullable === true,
    ...(def.default ? { default: def.default } : {}),
    readOnly: def.readOnly === true,
    writeOnly: def.writeOnly === true,
    unique: def.unique === true,
    filterable: def.filterable === true,
    deprecated: def.deprecated === true,
    ...(def.description !== undefined ? { description: def.description } : {}),
    ...(def.example ? { example: def.example } : {}),
  };
}

function checkShape(shape: FieldShape, def: FieldDef, name: string, where: string, ctx: FieldContext, ref: SourceRef, place: FieldPlace): void {
  const d = ctx.diagnostics;
  const at = (member: string) => refOf(def.calls[member], ref);
  if (shape.readOnly && shape.writeOnly)
    d.error('RG136', `${where} is both readOnly (only in responses) and writeOnly (only in requests); keep one.`, at('writeOnly'));
  if (shape.default) {
    if (shape.readOnly && def.kind !== 'id')
      d.error('RG141', `${where}: a read-only field is set by the server, so default() never applies; remove it.`, at('default'));
    const why = checkFieldValue({ ...shape, optional: false }, shape.default.value);
    if (why) d.error('RG137', `${where}: default ${JSON.stringify(shape.default.value)} fails the field's own constraints (${why}).`, at('default'));
  }
  if (shape.example) {
    const why = checkFieldValue({ ...shape, optional: false }, shape.example.value);
    if (why) d.error('RG138', `${where}: example ${JSON.stringify(shape.example.value)} fails the field's own constraints (${why}).`, at('example'));
  }
  // Every pattern-constrained string gets an example in the OpenAPI documents: derived, or given.
  const underivable = shape.example ? undefined : underivablePattern(shape.type);
  if (underivable !== undefined)
    d.error(
      'RG190',
      `${where}: restgen cannot derive an example from the pattern ${JSON.stringify(underivable)} for the OpenAPI documents; add .example('...') with a value that matches it.`,
      at('pattern'),
    );
  const scalar = kindOf(shape.type).wire !== 'array' && kindOf(shape.type).wire !== 'object';
  if (shape.unique && !scalar)
    d.error('RG141', `${where}: unique() needs a scalar field; ${shape.type.kind} values cannot be compared for duplicates.`, at('unique'));
  if (shape.filterable && !scalar)
    d.error(
      'RG141',
      `${where}: filterable() needs a scalar field; ${withArticle(shape.type.kind)} cannot be written as ?${where.split('.').pop()}=value.`,
      at('filterable'),
    );
  if (place !== 'elsewhere') checkQueryShape(shape, def, name, where, ctx, ref, place === 'nested');
  if (def.kind === 'id') {
    for (const m of ['optional', 'nullable', 'default', 'writeOnly', 'filterable'])
      if (m in def.calls) d.error('RG141', `${where}: .${m}() is not allowed on f.id(); the id is always server-assigned and present.`, at(m));
  }
}

function versionIndex(ctx: FieldContext, v: string): number {
  return ctx.versions.indexOf(v);
}

/** Reports markers naming unknown versions and returns the ones that name known versions. */
export function knownMarkers(markers: readonly MarkerDef[], where: string, ctx: FieldContext, ref: SourceRef): MarkerDef[] {
  return markers.filter((m) => {
    if (versionIndex(ctx, m.version) >= 0) return true;
    ctx.diagnostics.error(
      'RG150',
      `${where}: ${m.kind}(${m.kind === 'renamedFrom' ? `'${m.from}', ` : ''}'${m.version}') names an unknown version; the API declares ${ctx.versions.join(', ')}.`,
      refOf(m.site, ref),
    );
    return false;
  });
}

const byVersion = (ctx: FieldContext) => (a: { version: string }, b: { version: string }) => versionIndex(ctx, a.version) - versionIndex(ctx, b.version);

/** Builds one field (and, recursively, the fields of a nested object); `place` says where it is written. */
export function buildField(name: string, def: FieldDef, where: string, ctx: FieldContext, place: FieldPlace = 'collection'): FieldIR {
  const ref = refOf(def.site, ctx.fallback);
  if (!isIdentifier(name))
    ctx.diagnostics.error('RG130', `${where}: "${name}" is not a valid field name; use letters, digits and _ (not starting with a digit).`, ref);
  const shape = shapeOf(def, where, ctx, ref);
  if (def.kind === 'file') {
    // A file is no scalar: RG412 names the modifiers it has no use for; sortable() and expandable() get the query's own codes.
    checkFileModifiers(def, where, ref, ctx.diagnostics);
    if (place !== 'elsewhere') checkQueryShape(shape, def, name, where, ctx, ref, place === 'nested');
  } else checkShape(shape, def, name, where, ctx, ref, place);
  const markers = knownMarkers(def.markers, where, ctx, ref);
  let addedIn: string | undefined;
  let removedIn: FieldIR['removedIn'];
  const renames: Rename[] = [];
  const typeChanges: { version: string; before: FieldShape; loc: SourceRef }[] = [];
  const optionality: FieldIR['optionality'][number][] = [];
  for (const m of markers) {
    const mref = refOf(m.site, ref);
    if (m.kind !== 'addedIn' && m.kind !== 'removedIn' && versionIndex(ctx, m.version) === 0) {
      ctx.diagnostics.error(
        'RG163',
        `${where}: ${m.kind}('${m.version}') names the first version, which has no earlier version to differ from; remove the marker.`,
        mref,
      );
      continue;
    }
    switch (m.kind) {
      case 'addedIn':
        if (addedIn !== undefined) ctx.diagnostics.error('RG159', `${where}: addedIn() is given twice; keep one.`, mref);
        addedIn = m.version;
        break;
      case 'removedIn':
        if (removedIn !== undefined) ctx.diagnostics.error('RG159', `${where}: removedIn() is given twice; keep one.`, mref);
        removedIn = { version: m.version, ...(m.fallback ? { fallback: m.fallback } : {}) };
        break;
      case 'renamedFrom':
        if (!isIdentifier(m.from) || m.from === name)
          ctx.diagnostics.error('RG153', `${where}: renamedFrom('${m.from}', '${m.version}') must name a different, valid field name.`, mref);
        else renames.push({ from: m.from, version: m.version, loc: mref });
        break;
      case 'typeChangedFrom':
        refuseFile(m.old, `${where} (before ${m.version})`, "a type change's old shape", mref, ctx.diagnostics);
        if (m.old.markers.length > 0 || (m.old.valuesAdded?.length ?? 0) > 0)
          ctx.diagnostics.error(
            'RG162',
            `${where}: the old field given to typeChangedFrom('${m.version}', ...) carries version markers; put markers on the field itself, not on its old shape.`,
            mref,
          );
        typeChanges.push({ version: m.version, before: shapeOf(m.old, `${where} (before ${m.version})`, ctx, refOf(m.old.site, mref)), loc: mref });
        break;
      case 'madeOptionalIn':
      case 'madeRequiredIn':
        optionality.push({
          version: m.version,
          to: m.kind === 'madeOptionalIn' ? 'optional' : 'required',
          loc: mref,
          ...(m.kind === 'madeRequiredIn' && m.fallback ? { fallback: m.fallback } : {}),
        });
        break;
    }
  }
  for (const list of [renames, typeChanges, optionality]) {
    list.sort(byVersion(ctx));
    const dup = list.find((x, i) => i > 0 && list[i - 1]?.version === x.version);
    if (dup) ctx.diagnostics.error('RG159', `${where}: two markers of the same kind name ${dup.version}; a field changes one way per version.`, ref);
  }
  return {
    kind: 'field',
    name,
    ...shape,
    ...(addedIn !== undefined ? { addedIn } : {}),
    ...(removedIn ? { removedIn } : {}),
    renames,
    typeChanges,
    optionality,
    loc: ref,
    calls: def.calls,
  };
}

/** The pattern of a string (or of array items, at any depth) that derives no example within its length bounds. */
function underivablePattern(type: TypeIR): string | undefined {
  if (type.kind === 'array') return underivablePattern(type.of);
  if (type.kind !== 'string' || type.pattern === undefined) return undefined;
  return exampleOfPattern(type.pattern, type.min, type.max) === null ? type.pattern : undefined;
}
