/**
 * @module Rules of one field over the versions it exists in (markers against its lifetime, optionality,
 * fallbacks, refs, enum values added later, nested changes, names per version). Shared by the
 * collections' fields and the transitions' inputs.
 */
import type { DiagnosticBag } from './diagnostics.ts';
import type { ApiIR, EnumValueAdded, FieldIR, FieldShape, SourceRef } from './ir.ts';
import { emptyRange, existsAt, shapeAt } from './project.ts';
import { checkFieldValue } from './values.ts';

/** What the whole-API rules need. */
export interface Ctx {
  readonly api: ApiIR;
  readonly versions: readonly string[];
  readonly d: DiagnosticBag;
  /** Collections by name, so that checking every ref stays linear in the size of the API. */
  readonly byName: ReadonlyMap<string, ApiIR['collections'][number]>;
}

const at = (field: FieldIR, member: string): SourceRef => field.calls[member] ?? field.loc;

/**
 * Rules of one field over the versions it exists in (`alive`). `start` is the first version of its owner
 * (a collection, or a transition for an input field): a required field added after it needs a default.
 * An input field (`input`) is never answered, so a removed one needs no fallback.
 */
export function checkField(ctx: Ctx, start: number, field: FieldIR, where: string, alive: number[], input = false): void {
  const { d, versions } = ctx;
  const idx = (v: string) => versions.indexOf(v);
  const first = alive[0];
  const empty = emptyRange(versions, field.addedIn, field.removedIn?.version);
  if (empty) d.error(empty.code, `${where} ${empty.text}.`, at(field, 'removedIn'));
  if (field.type.kind === 'id' && (field.addedIn || field.removedIn || field.renames.length || field.typeChanges.length || field.optionality.length))
    d.error('RG141', `${where}: the id field exists in every version unchanged; remove its version markers.`, field.loc);
  // A change "in version V" compares V with V-1, so the field must exist in both.
  const changes = [
    ...field.renames.map((r) => ({ kind: 'renamedFrom', version: r.version, loc: r.loc })),
    ...field.typeChanges.map((t) => ({ kind: 'typeChangedFrom', version: t.version, loc: t.loc })),
    ...field.optionality.map((o) => ({ kind: o.to === 'optional' ? 'madeOptionalIn' : 'madeRequiredIn', version: o.version, loc: o.loc })),
  ];
  for (const change of changes) {
    const i = idx(change.version);
    if (!alive.includes(i) || !alive.includes(i - 1))
      d.error(
        'RG160',
        `${where}: ${change.kind}('${change.version}') describes a change in ${change.version}, but the field does not exist both in ${change.version} and the version before it.`,
        change.loc,
      );
  }
  for (const o of field.optionality) {
    const shape = shapeAt(versions, idx(o.version), field);
    if (o.to === 'optional' && !shape.optional)
      d.error(
        'RG157',
        `${where}: madeOptionalIn('${o.version}') says the field became optional in ${o.version}, but it is required there; add .optional() to the chain (it describes the newest version).`,
        o.loc,
      );
    if (o.to === 'required' && shape.optional)
      d.error(
        'RG158',
        `${where}: madeRequiredIn('${o.version}') says the field became required in ${o.version}, but it is optional there; remove .optional() or the marker.`,
        o.loc,
      );
    if (o.to === 'required' && !shape.default && !shape.readOnly && !o.fallback)
      d.error(
        'RG156',
        `${where} became required in ${o.version} without a default, so a create sent to an older version cannot be migrated up; give the value such a create gets: .madeRequiredIn('${o.version}', { fallback: ... }) (or add .default(value)).`,
        o.loc,
      );
    if (o.to === 'required' && o.fallback) checkRequiredFallback(ctx, where, o, shape);
  }
  if (field.removedIn && alive.length > 0) {
    const last = shapeAt(versions, alive[alive.length - 1]!, field);
    const fallback = field.removedIn.fallback;
    if (!fallback && !last.optional && !input)
      d.error(
        'RG154',
        `${where} is required but removed in ${field.removedIn.version}; older versions still answer it, so give a value: .removedIn('${field.removedIn.version}', { fallback: ... }).`,
        at(field, 'removedIn'),
      );
    if (fallback) {
      const why = checkFieldValue({ ...last, optional: false }, fallback.value);
      if (why)
        d.error(
          'RG155',
          `${where}: fallback ${JSON.stringify(fallback.value)} fails the field's constraints in the versions it still exists in (${why}).`,
          at(field, 'removedIn'),
        );
    }
  }
  if (field.addedIn && first !== undefined && first > 0) {
    const shape = shapeAt(versions, first, field);
    if (first > start && !shape.optional && !shape.default && !shape.readOnly)
      d.error(
        'RG156',
        `${where} is required and added in ${field.addedIn}, so a create sent to an older version cannot be migrated up; add .default(value) or make it .optional().`,
        at(field, 'addedIn'),
      );
  }
  checkRefs(ctx, field.type, where, alive, field.loc);
  checkEnumAdditions(ctx, field, where, alive);
  for (const shape of [field, ...field.typeChanges.map((t) => t.before)])
    if (shape.type.kind === 'object')
      for (const child of shape.type.fields)
        checkField(
          ctx,
          start,
          child,
          `${where}.${child.name}`,
          alive.filter((i) => existsAt(versions, i, child.addedIn, child.removedIn?.version)),
          input,
        );
}

/** The enum of a type, itself or as the items of (nested) arrays. */
function enumOf(type: FieldIR['type']): Extract<FieldIR['type'], { kind: 'enum' }> | undefined {
  if (type.kind === 'array') return enumOf(type.of);
  return type.kind === 'enum' ? type : undefined;
}

/**
 * `valueAddedIn` against the versions: the field must have this enum in the version before (so there is
 * an older version to fall back for), a fallback must be older than the value, and a default or example
 * must be a value every version of the field has.
 */
function checkEnumAdditions(ctx: Ctx, field: FieldIR, where: string, alive: number[]): void {
  const type = enumOf(field.type);
  if (!type?.added || alive.length === 0) return;
  const idx = (v: string) => ctx.versions.indexOf(v);
  // The newest type holds from the last type change on (or from the field's first version).
  const since = Math.max(alive[0]!, ...field.typeChanges.map((t) => idx(t.version)));
  for (const a of type.added) {
    const v = idx(a.version);
    if (!alive.includes(v) || !alive.includes(v - 1) || v - 1 < since)
      ctx.d.error(
        'RG333',
        `${where}: valueAddedIn('${a.version}', '${a.value}') needs the field to have this enum both in ${a.version} and in the version before it; it has it in ${
          alive
            .filter((i) => i >= since)
            .map((i) => ctx.versions[i])
            .join(', ') || 'no version'
        }.`,
        a.loc,
      );
    const fallback = type.added.find((x) => x.value === a.fallback);
    if (fallback && idx(fallback.version) >= v)
      ctx.d.error(
        'RG332',
        `${where}: valueAddedIn('${a.version}', '${a.value}') falls back to '${a.fallback}', which is only added in ${fallback.version}; fall back to a value older versions have.`,
        a.loc,
      );
  }
  const later = (value: unknown): EnumValueAdded | undefined => {
    const values = Array.isArray(value) ? value : [value];
    return type.added!.find((x) => idx(x.version) > since && values.includes(x.value));
  };
  for (const [member, holder] of [
    ['default', field.default],
    ['example', field.example],
  ] as const) {
    const a = holder ? later(holder.value) : undefined;
    if (a)
      ctx.d.error(
        'RG334',
        `${where}: the ${member} ${JSON.stringify(holder!.value)} uses '${a.value}', which only exists from ${a.version} on, so older versions would ${member === 'default' ? 'store a value they cannot show' : 'document a value they reject'}; use a value every version has.`,
        field.calls[member] ?? field.loc,
      );
  }
}

/** The fallback of `madeRequiredIn(v, { fallback })`: it must be needed, and valid where the field is required. */
function checkRequiredFallback(ctx: Ctx, where: string, o: FieldIR['optionality'][number], shape: FieldShape): void {
  const value = o.fallback!.value;
  if (shape.readOnly)
    ctx.d.error(
      'RG167',
      `${where} is read-only, so requests never carry it and the fallback of madeRequiredIn('${o.version}') never applies; remove the fallback.`,
      o.loc,
    );
  else if (shape.default)
    ctx.d.error(
      'RG166',
      `${where} has a default (${JSON.stringify(shape.default.value)}), which already fills creates sent to older versions, so the fallback of madeRequiredIn('${o.version}') would never apply; keep one of them.`,
      o.loc,
    );
  else {
    const why = checkFieldValue({ ...shape, optional: false }, value);
    if (why)
      ctx.d.error(
        'RG165',
        `${where}: fallback ${JSON.stringify(value)} of madeRequiredIn('${o.version}') fails the field's constraints in ${o.version} (${why}); give a value the field accepts there.`,
        o.loc,
      );
  }
}

/**
 * Inside an object the server migrates renames, added and removed fields, but calls no hooks: a nested
 * type change or a nested field made optional (older versions require a value) must be described on the
 * object field itself.
 */
export function checkNestedChanges(ctx: Ctx, field: FieldIR, where: string): void {
  for (const shape of [field, ...field.typeChanges.map((t) => t.before)]) {
    let type = shape.type;
    while (type.kind === 'array') type = type.of;
    if (type.kind !== 'object') continue;
    for (const child of type.fields) {
      const path = `${where}.${child.name}`;
      const cannot = (what: string, loc: SourceRef) =>
        ctx.d.error(
          'RG164',
          `${path}: a nested field change the server cannot migrate without a hook: ${what}; move the marker to the object field, e.g. \`.typeChangedFrom(v, f.object({...old}))\`.`,
          loc,
        );
      for (const t of child.typeChanges) cannot(`typeChangedFrom('${t.version}')`, t.loc);
      for (const o of child.optionality) if (o.to === 'optional' && !child.default) cannot(`madeOptionalIn('${o.version}') without a default`, o.loc);
      checkNestedChanges(ctx, child, path);
    }
  }
}

function checkRefs(ctx: Ctx, type: FieldIR['type'], where: string, alive: number[], loc: SourceRef): void {
  if (type.kind === 'array') return checkRefs(ctx, type.of, where, alive, loc);
  if (type.kind !== 'ref') return;
  const target = ctx.byName.get(type.collection);
  if (!target) {
    const names = ctx.api.collections.map((c) => c.name).join(', ');
    ctx.d.error('RG139', `${where}: f.ref('${type.collection}') names an unknown collection; the API has ${names}.`, { ...loc, member: 'ref' });
    return;
  }
  const missing = alive.filter((i) => !existsAt(ctx.versions, i, target.addedIn, target.removedIn));
  if (missing.length > 0)
    ctx.d.error(
      'RG140',
      `${where}: f.ref('${type.collection}') exists in ${missing.map((i) => ctx.versions[i]).join(', ')}, where ${type.collection} does not; add .addedIn('${ctx.versions[Math.max(...missing) + 1] ?? ''}') to the field or change the collection's markers.`,
      { ...loc, member: 'ref' },
    );
}

/** Reports a name that appears twice among one object's fields at some version. */
export function checkNamesPerVersion(ctx: Ctx, fields: readonly FieldIR[], where: string): void {
  ctx.versions.forEach((version, i) => {
    const seen = new Map<string, FieldIR>();
    for (const field of fields) {
      if (!existsAt(ctx.versions, i, field.addedIn, field.removedIn?.version)) continue;
      let name = field.name;
      let rename: (typeof field.renames)[number] | undefined;
      for (let k = field.renames.length - 1; k >= 0; k--) {
        const r = field.renames[k]!;
        if (i < ctx.versions.indexOf(r.version)) (name = r.from), (rename = r);
      }
      const other = seen.get(name);
      if (other && (rename || other.renames.length)) {
        const loc = rename?.loc ?? other.renames[0]?.loc ?? field.loc;
        ctx.d.error(
          'RG152',
          `${where}: in ${version} both ${other.name} and ${field.name} would be called "${name}"; a rename must not take a name another field has in the same version.`,
          loc,
        );
      }
      seen.set(name, field);
      const shape = shapeAt(ctx.versions, i, field);
      if (shape.type.kind === 'object') checkNamesPerVersion(ctx, shape.type.fields, `${where}.${field.name}`);
    }
  });
}
