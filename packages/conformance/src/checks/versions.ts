/**
 * @module Versions side by side: a record created through the oldest version reads the same through the newest
 * (every field both versions have with the same kind), with the same ETag; changed through the newest, it reads
 * back through the oldest with only that change (renamed and retyped fields included: the migration hooks must
 * undo each other); and a record created through the newest reads the same through the oldest.
 */
import type { CollectionAt, FieldAt } from 'restgen/contract';
import { methodOf, type VersionScope } from '../client.js';
import { sameValue, show } from '../compare.js';
import { createContext } from '../context.js';
import { guarded } from '../guard.js';
import type { Session } from '../session.js';
import { changeableField, changed, echoedFields, keptFields } from './helpers.js';

/** A field in the oldest and the newest version. */
interface Pair {
  readonly old: FieldAt;
  readonly now: FieldAt;
}

/** Fields both versions show with the same kind, by newest name (but those a stand-in hook converts: `skip`). */
function pairsOf(oldest: CollectionAt, newest: CollectionAt, skip: (old: FieldAt) => boolean): Pair[] {
  return oldest.fields.filter((old) => !skip(old)).flatMap((old) => {
    const now = newest.fields.find((f) => f.key === old.key);
    // A field removed in a later version is not stored: both versions read it from a migration hook.
    return now && !old.writeOnly && !now.writeOnly && old.type.kind === now.type.kind && old.removedIn === undefined ? [{ old, now }] : [];
  });
}

/** Whether version `to` can show `value` of `field` as it is (an enum value it does not know shows as another). */
const showable = (field: FieldAt, value: unknown) => field.type.kind !== 'enum' || field.type.values.includes(String(value));

function compare(pairs: readonly Pair[], from: Readonly<Record<string, unknown>>, fromSide: 'old' | 'now', to: Readonly<Record<string, unknown>>): string[] {
  const toSide = fromSide === 'old' ? 'now' : 'old';
  return pairs
    .filter((p) => showable(p[toSide], from[p[fromSide].name]))
    .filter((p) => !sameValue(p[toSide].type, from[p[fromSide].name], to[p[toSide].name]))
    .map((p) => `${p[toSide].name}: ${show(from[p[fromSide].name])} → ${show(to[p[toSide].name])}`);
}

/** Runs the versions check for the collection `key` between `oldest` and `newest`. */
export async function checkVersions(session: Session, oldest: VersionScope, newest: VersionScope, key: string): Promise<void> {
  const cOld = oldest.api.collections.find((c) => c.key === key);
  const cNew = newest.api.collections.find((c) => c.key === key);
  if (!cOld || !cNew) return;
  const label = { version: `${oldest.name} → ${newest.name}`, collection: cNew.name };
  const old = createContext(session, oldest, cOld, 'versions', { label });
  const now = createContext(session, newest, cNew, 'versions', { label });
  // Without create and get on both sides the check does not apply.
  if (!(['create', 'get'] as const).every((op) => cOld.operations.includes(op) && cNew.operations.includes(op))) return;
  const pairs = pairsOf(cOld, cNew, (f) => old.stoodIn(f));
  await guarded(session, label, 'versions', async () => {
    // Oldest → newest.
    const made = await old.create();
    const readNew = await now.api.get(made.id);
    now.succeeded(readNew, `reading through ${newest.name} a record created through ${oldest.name}`);
    const diff = compare(pairs, made.resource, 'old', now.resource(readNew, 'reading it'));
    if (diff.length > 0) now.fail('get', `created through ${oldest.name}, read through ${newest.name}: ${diff.join('; ')}`, readNew);
    const readOld = await old.api.get(made.id);
    old.succeeded(readOld, `reading it through ${oldest.name}`);
    const before = old.resource(readOld, 'reading it');
    if (readOld.answer?.headers['etag'] !== readNew.answer?.headers['etag'])
      now.fail(
        'get',
        `the same stored record answers ETag ${readOld.answer?.headers['etag'] ?? '(none)'} in ${oldest.name} and ${readNew.answer?.headers['etag'] ?? '(none)'} in ${newest.name}`,
        readNew,
      );
    // Changed through the newest, it reads back through the oldest with that change only.
    const writable = pairs.filter((p) => !p.old.readOnly && !p.now.readOnly && p.old.removedIn === undefined);
    const field = cNew.operations.includes('update')
      ? changeableField(
          now,
          writable.map((p) => p.now),
        )
      : undefined;
    if (field) {
      const pair = writable.find((p) => p.now === field)!;
      const value = changed(now, field, now.resource(readNew, 'reading it')[field.name]);
      const patch = { [field.name]: value };
      now.ensureValid('update', patch);
      now.succeeded(await now.api.update(made.id, patch), `updating ${field.name} through ${newest.name}`);
      const back = await old.api.get(made.id);
      old.succeeded(back, `reading it through ${oldest.name} after the update`);
      const after = old.resource(back, 'reading it');
      // What was sent through the oldest version must read back as sent (retyped fields through both hooks);
      // the id and the state as they were.
      const wrong = [
        ...echoedFields(old)
          .filter((f) => f.key !== pair.old.key && f.name in made.sent && !sameValue(f.type, made.sent[f.name], after[f.name]))
          .map((f) => `${f.name}: sent ${show(made.sent[f.name])}, reads ${show(after[f.name])}`),
        ...keptFields(old)
          .filter((f) => f.readOnly && !sameValue(f.type, before[f.name], after[f.name]))
          .map((f) => `${f.name}: ${show(before[f.name])} → ${show(after[f.name])}`),
      ];
      if (!sameValue(pair.old.type, value, after[pair.old.name]))
        wrong.unshift(`${pair.old.name} is ${show(after[pair.old.name])}, not the ${show(value)} written through ${newest.name}`);
      if (wrong.length > 0) old.fail('get', `after ${methodOf('update')} ${JSON.stringify(patch)} through ${newest.name}, ${oldest.name} reads: ${wrong.join('; ')}`, back);
    }
    // Newest → oldest.
    const fresh = await now.create();
    const readBack = await old.api.get(fresh.id);
    old.succeeded(readBack, `reading through ${oldest.name} a record created through ${newest.name}`);
    const diffBack = compare(pairs, fresh.resource, 'now', old.resource(readBack, 'reading it'));
    if (diffBack.length > 0) old.fail('get', `created through ${newest.name}, read through ${oldest.name}: ${diffBack.join('; ')}`, readBack);
  });
}
