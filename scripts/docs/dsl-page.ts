/**
 * @module The reference page of the DSL, read from the builders' interfaces and their JSDoc in generator/dsl: the
 * field builders of `f`, the modifiers and version markers (which field kinds have each, from the type checker),
 * the collection markers, and the options of `collection`, `defineApi` and `defineConfig`. A modifier is a version
 * marker when it takes a `version` parameter.
 */
import { fileURLToPath } from 'node:url';
import { code, generatedHeader, table } from './markdown.ts';
import { meaning, typeSection } from './type-tables.ts';
import { openSources, readType, returnedMembers, type MemberDoc } from './typescript-members.ts';

const DSL = fileURLToPath(new URL('../../generator/dsl/', import.meta.url));
const FIELD = `${DSL}field.ts`;
const FIELD_TYPES = `${DSL}field-types.ts`;
const DEFS = `${DSL}defs.ts`;
const COLLECTION = `${DSL}collection.ts`;
const API = `${DSL}define-api.ts`;
const CONFIG = `${DSL}define-config.ts`;

const isMarker = (m: MemberDoc): boolean => /\bversion\??:/.test(m.type);

/** The page's Markdown. */
export function dslPage(): string {
  const project = openSources([FIELD, FIELD_TYPES, DEFS, COLLECTION, API, CONFIG]);
  const builders = readType(project, FIELD, 'FieldBuilders');
  const kindsOf = returnedMembers(project, FIELD, 'FieldBuilders');
  const modifiers = [
    ...readType(project, FIELD_TYPES, 'FieldModifiers').members,
    ...readType(project, FIELD_TYPES, 'Bounded').members,
    ...readType(project, FIELD_TYPES, 'StringField').members,
    ...readType(project, FIELD_TYPES, 'EnumField').members,
    ...readType(project, FIELD_TYPES, 'Sortable').members,
    ...readType(project, FIELD_TYPES, 'RefField').members,
  ];
  const allKinds = builders.members.map((b) => b.name);
  const kindsHaving = (modifier: string): string => {
    const having = allKinds.filter((k) => kindsOf.get(k)?.includes(modifier));
    const lacking = allKinds.filter((k) => !having.includes(k));
    if (lacking.length === 0) return 'every field';
    // A modifier all kinds but one or two have (a file has no default): named by what lacks it.
    if (lacking.length <= 2) return `every field but ${lacking.map((k) => code(`f.${k}()`)).join(' and ')}`;
    return having.map((k) => code(`f.${k}()`)).join(', ');
  };
  // What every field has (FieldModifiers), which no builder's row repeats.
  const common = new Set(readType(project, FIELD_TYPES, 'FieldModifiers').members.map((m) => m.name));
  const row = (m: MemberDoc): string[] => [code(`.${m.call ?? m.name}`), meaning(m), kindsHaving(m.name)];
  const out: string[] = [
    generatedHeader('the interfaces and JSDoc of generator/dsl'),
    '# DSL',
    '',
    'What an API module imports from `restgen`: `defineApi`, `collection` and the field builders `f`, and',
    '`defineConfig` for `restgen.config.ts`. Every builder is immutable (a modifier returns a new builder), and',
    'modifiers are typed per field kind. How to put them together is in [the DSL guide](../guide/dsl.md).',
    '',
    '## Field builders {#field-builders}',
    '',
    table(
      ['builder', 'what it is', 'modifiers of its own'],
      builders.members.map((b) => {
        const own = (kindsOf.get(b.name) ?? []).filter((m) => !common.has(m) && allKinds.some((k) => !kindsOf.get(k)?.includes(m)));
        return [code(`f.${b.call ?? b.name}`), meaning(b), own.map((m) => code(`.${m}()`)).join(', ') || '–'];
      }),
    ),
    '',
    '## Modifiers {#modifiers}',
    '',
    table(['modifier', 'what it does', 'on'], modifiers.filter((m) => !isMarker(m)).map(row)),
    '',
    '## Version markers {#markers}',
    '',
    'The builder chain describes a field as it is in the newest version; markers say how it was before. A field',
    'without markers exists in every version.',
    '',
    table(['marker', 'what it says', 'on'], modifiers.filter(isMarker).map(row)),
    '',
  ];
  const collection = readType(project, COLLECTION, 'CollectionBuilder');
  out.push(
    '## Collection markers {#collection-markers}',
    '',
    table(
      ['marker', 'what it says'],
      collection.members.map((m) => [code(`collection({...}).${m.call ?? m.name}`), meaning(m)]),
    ),
    '',
    '## `collection({...})` options {#collection}',
    '',
  );
  for (const name of [
    'CollectionOptions',
    'LifecycleDef',
    'TransitionDef',
    'VersionedOperation',
    'VersionedEvent',
    'VersionedOp',
    'Lifespan',
    'ScopesDef',
    'PaginationDef',
    'RateLimitDef',
  ])
    out.push(typeSection(readType(project, DEFS, name)));
  out.push('## `defineApi({...})` options {#defineapi}', '', typeSection(readType(project, API, 'ApiOptions')));
  for (const name of [
    'VersionDef',
    'VersioningDef',
    'AuthDef',
    'OAuth2Def',
    'AuthorizationCodeFlowDef',
    'ClientCredentialsFlowDef',
    'ImplicitFlowDef',
    'PasswordFlowDef',
    'CustomEventDef',
    'WebhooksDef',
    'ServerDef',
    'OpenApiDef',
  ])
    out.push(typeSection(readType(project, DEFS, name)));
  out.push('## `defineConfig({...})` options {#defineconfig}', '');
  for (const name of ['RestgenConfig', 'DiffConfig', 'Part']) out.push(typeSection(readType(project, CONFIG, name)));
  return out.join('\n');
}
