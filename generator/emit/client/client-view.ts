/**
 * @module The view models of the client templates, built from the IR. Every decision about what the
 * client contains (which types, which operations, what the docs say) is made here; the templates in
 * `templates/client/` only lay it out.
 */
import { takesBearer, type ApiAt, type ApiIR, type CollectionAt, type VersionIR } from '../../model/ir.ts';
import { capitalized, pascalCase, withArticle } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { e, t as ty, type Expr, type Type } from '../../printer/ast.ts';
import { SECRET_ANSWERS, WITH_SECRET_DOC, withSecretName } from '../../model/webhook-endpoints.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { clientFeatures, has, RUNTIME_EXPORTS } from './client-runtime.ts';
import { filterMembers, members, propertyKey } from './client-types.ts';
import type { ClientCollectionView, ClientIndexView, ObjectTypeView, VersionFileView } from './client-view-types.ts';

export type { ObjectTypeView, ClientCollectionView, CollectionView, VersionFileView, IndexVersionView, ClientIndexView } from './client-view-types.ts';

const literal = (value: string): string => JSON.stringify(value);
/** A member access in source: `.v1`, or `['2026-01']` when the name is not an identifier. */
const accessor = (name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `.${name}` : `[${literal(name)}]`);

/** An identifier part for a version name: `v1` gives `V1`, `2026-01` gives `V2026_01`. */
export function versionIdentifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9]+/g, '_');
  return /^[0-9]/.test(id) ? `V${id}` : id[0]!.toUpperCase() + id.slice(1);
}

/** The JSDoc lines of a version: its lifecycle, with `@deprecated` or `@experimental` tags. */
export function versionDocLines(api: ApiIR, v: VersionIR): string[] {
  if (v.released === undefined) return [`${v.name}: not released yet, it may still change in breaking ways.`, '@experimental'];
  const lines = [`${v.name}: released ${v.released}.`];
  if (v.deprecated !== undefined || v.sunset !== undefined) {
    const successor = api.versions.find((w) => w.index > v.index && w.released !== undefined && w.deprecated === undefined);
    const sunset = v.sunset !== undefined ? `; sunset ${v.sunset}, after which it answers 410 Gone` : '';
    const move = successor ? `. Move to ${successor.name}.` : '.';
    lines.push(`@deprecated Deprecated since ${v.deprecated ?? v.released}${sunset}${move}`);
  }
  return lines;
}

/** The `answers` slot of the webhook endpoints: create and rotateSecret answer the secret, where the version has them. */
function answersOf(c: CollectionAt, secretName: string): Type {
  const offered = [
    ...(c.operations.includes(SECRET_ANSWERS.operation) ? [SECRET_ANSWERS.operation] : []),
    ...(c.lifecycle?.transitions.some((tr) => tr.name === SECRET_ANSWERS.transition) ? [SECRET_ANSWERS.transition] : []),
  ];
  return ty.lit(offered.map((name) => ty.prop(name, ty.ref(secretName))));
}

/** A collection an expandable ref names, as the client of one version types it. */
export interface ExpandTarget {
  /** The referenced collection's name (its module: `./customers.js`). */
  readonly collection: string;
  readonly typeName: string;
}

/**
 * The view of `client/<version>/<collection>.ts`: it reads only the API's title, the version's name, the collection
 * and the collections its expandable refs name (`targets`, by collection name).
 */
export function buildCollectionFile(api: Pick<ApiIR, 'title'>, c: CollectionAt, version: string, targets: readonly ExpandTarget[] = []): ClientCollectionView {
  const t = c.typeName;
  const has = (op: CollectionAt['operations'][number]): boolean => c.operations.includes(op);
  const writes = has('create') || has('replace');
  const createName = has('create') ? `${t}Create` : `${t}Replace`;
  const types: ObjectTypeView[] = [
    {
      name: t,
      doc: c.description ?? `${capitalized(withArticle(c.name))} resource as ${version} answers it.`,
      members: members(c.fields, 'response'),
      alias: false,
    },
  ];
  // The answers that show the webhook endpoints' signing secret: the resource with the secret required.
  const secretName = withSecretName(c);
  if (secretName !== null)
    types.push({
      name: secretName,
      doc: WITH_SECRET_DOC,
      members: [],
      alias: ty.inter([ty.ref(t), ty.lit([ty.prop(SECRET_ANSWERS.field, ty.ref('string'))])]),
    });
  if (writes)
    types.push({
      name: createName,
      doc: `The body of ${c.name}.${has('create') ? 'create' : 'replace'} in ${version}.`,
      members: members(c.fields, 'request'),
      alias: false,
    });
  // Replace takes the same body as create (the zod schemas agree), so it is an alias when both exist.
  if (has('create') && has('replace'))
    types.push({ name: `${t}Replace`, doc: `The body of ${c.name}.replace in ${version}.`, members: [], alias: ty.ref(createName) });
  // A patch is a create body with every top-level field optional; spelled out only when there is no create body.
  if (has('update')) {
    const doc = `The patch of ${c.name}.update in ${version}: only the fields to change.`;
    types.push(
      writes
        ? { name: `${t}Patch`, doc, members: [], alias: ty.ref('Partial', [ty.ref(createName)]) }
        : { name: `${t}Patch`, doc, members: members(c.fields, 'patch'), alias: false },
    );
  }
  const transitions = c.lifecycle?.transitions ?? [];
  for (const tr of transitions) {
    const doc = [`The input of ${c.name}.${tr.name} in ${version}, which moves it from ${tr.from.join(' or ')} to ${tr.to}.`, tr.description ?? '']
      .filter(Boolean)
      .join(' ');
    const input = members(tr.input, 'request');
    // Without fields the input is `{}` (or left out); `Record<string, never>` rejects anything else.
    types.push({
      name: inputTypeName(c, tr.name),
      doc,
      members: input,
      alias: input.length === 0 ? ty.ref('Record', [ty.ref('string'), ty.ref('never')]) : false,
    });
  }
  const sortable = c.query.sortable.flatMap((f) => [ty.str(f.name), ty.str(`-${f.name}`)]);
  const refs = c.query.expandable.map((x) => ({ name: x.name, target: targets.find((r) => r.collection === x.collection)! }));
  const expandable = refs.length > 0 ? ty.union(refs.map((r) => ty.str(r.name))) : null;
  const imported = [...new Map(refs.filter((r) => r.target.collection !== c.name).map((r) => [r.target.collection, r.target])).values()];
  const id = c.fields.find((f) => f.type.kind === 'id')?.name ?? 'id';
  return {
    title: api.title,
    version,
    name: c.name,
    types,
    list: has('list')
      ? {
          query: `${t}ListQuery`,
          head: ty.heritage(`${t}ListQuery`, ty.ref('$.ListParams')),
          filters: filterMembers(c),
          // Read-only arrays: what a `const` type parameter infers from a literal (`["-title"]`) is one.
          sort: sortable.length > 0 ? ty.ref('ReadonlyArray', [ty.union(sortable)]) : null,
          fields: ty.ref('ReadonlyArray', [ty.ref(`keyof ${t}`)]),
          expand: expandable ? ty.ref('ReadonlyArray', [expandable]) : null,
          page: `${t}List`,
          pageType: ty.ref('$.Page', [ty.ref(t)]),
          doc: `${c.name}.list in ${version}`,
        }
      : false,
    runtime: has('list'),
    refs: imported.map((r) => ({ names: e.specifiers([r.typeName]), module: JSON.stringify(`./${r.collection}.js`) })),
    slotsName: `${t}Types`,
    slots: [
      { key: 'item', type: ty.ref(t) },
      ...(has('create') ? [{ key: 'create', type: ty.ref(`${t}Create`) }] : []),
      ...(has('replace') ? [{ key: 'replace', type: ty.ref(`${t}Replace`) }] : []),
      ...(has('update') ? [{ key: 'patch', type: ty.ref(`${t}Patch`) }] : []),
      ...(has('list') ? [{ key: 'query', type: ty.ref(`${t}ListQuery`) }] : []),
      { key: 'ops', type: c.operations.length > 0 ? ty.union(c.operations.map(ty.str)) : ty.ref('never') },
      { key: 'id', type: ty.str(id) },
      ...(refs.length > 0 ? [{ key: 'expand', type: ty.lit(refs.map((r) => ty.prop(r.name, ty.ref(r.target.typeName)))) }] : []),
      ...(transitions.length > 0 ? [{ key: 'transitions', type: ty.lit(transitions.map((tr) => ty.prop(tr.name, ty.ref(inputTypeName(c, tr.name))))) }] : []),
      ...(secretName !== null ? [{ key: 'answers', type: answersOf(c, secretName) }] : []),
    ],
    transitions: transitions.map((tr) => tr.name),
    files: c.fields.some((f) => f.type.kind === 'file'),
  };
}

/**
 * The view of one version's module. It only names the collections (their types are built when their own
 * modules are), so a field change leaves it unchanged.
 */
export function buildVersionView(api: ApiIR, v: VersionIR): VersionFileView {
  const at = project(api, v.name);
  const id = versionIdentifier(v.name);
  const base = pascalCase(api.name);
  const collections = at.collections.map((c) => ({ c, transitions: (c.lifecycle?.transitions ?? []).map((tr) => tr.name), slotsName: `${c.typeName}Types` }));
  const transitions = collections.some((c) => c.transitions.length > 0);
  // Collections with file fields get `download`, and uploads in their writes (`withFiles` of `runtime/files.ts`).
  const withFiles = at.collections.flatMap((c) => {
    const names = c.fields.filter((f) => f.type.kind === 'file').map((f) => f.name);
    return names.length > 0 ? [{ c, names }] : [];
  });
  const namespace = ty.ref('$.Namespace', [ty.ref(`${base}${id}Types`)]);
  const call = e.call(
    '$.createNamespace',
    [
      e.id('t'),
      e.str(v.name),
      e.obj(
        collections.map(({ c, transitions }) =>
          // [operations, transitions, path]: the path only when it is not the collection's name.
          e.prop(
            c.name,
            e.arr([
              e.json(c.operations),
              ...(transitions.length > 0 || c.path !== c.name ? [e.json(transitions)] : []),
              ...(c.path !== c.name ? [e.str(c.path)] : []),
            ]),
          ),
        ),
        true,
      ),
      // A version with transitions gives their answers' error classes (imported, never registered on import).
      ...(transitions ? [e.id('TRANSITION_ERRORS')] : []),
    ],
    [ty.ref(`${base}${id}Types`)],
  );
  const event = webhookEvent(at, v.name);
  return {
    title: api.title,
    version: v.name,
    versionLiteral: literal(v.name),
    docLines: versionDocLines(api, v),
    namespaceName: `${base}${id}`,
    typesName: `${base}${id}Types`,
    // Collections with file fields get `download`; a version with events also has `events.stream()`, typed by its
    // WebhookEvent union.
    namespaceType: ty.inter([
      namespace,
      ...(withFiles.length > 0
        ? [ty.lit(withFiles.map(({ c, names }) => ty.prop(c.name, ty.ref('$files.Downloads', [ty.union(names.map(ty.str))]), false, true)))]
        : []),
      ...(event ? [ty.lit([{ k: 'tprop', key: 'events', type: ty.ref('EventStream', [ty.ref('WebhookEvent')]), readonly: true }])] : []),
    ]),
    factoryParams: e.params(['t: $.Transport']),
    namespaceCall: withEvents(
      event !== null,
      v.name,
      withFiles.length > 0
        ? e.call('$files.withFiles', [call, e.id('t'), e.str(v.name), e.obj(withFiles.map(({ c }) => e.prop(c.name, e.str(c.path))))])
        : call,
    ),
    factoryName: `create${id}`,
    webhookEvent: event,
    transitions,
    files: withFiles.length > 0,
    collections: collections.map(({ c, slotsName }) => ({
      key: propertyKey(c.name),
      path: literal(c.path),
      doc: c.description ?? false,
      module: literal(`./${v.name}/${c.name}.js`),
      slotsName,
      alias: `$${c.typeName}`,
      imports: e.specifiers([`${slotsName} as $${c.typeName}`]),
    })),
  };
}

/** `namespace`, and with events `{ ...namespace, events: eventStream<WebhookEvent>(t, "v1") }`. */
function withEvents(events: boolean, version: string, namespace: Expr): Expr {
  if (!events) return namespace;
  return e.obj([e.spread(namespace), e.prop('events', e.call('eventStream', [e.id('t'), e.str(version)], [ty.ref('WebhookEvent')]))], true);
}

/**
 * The `WebhookEvent` union of a version (a derived event carries its collection's resource type, a custom one
 * its payload), or null when the version delivers no events.
 */
function webhookEvent(at: ApiAt, version: string): Type | null {
  const events = (at.events ?? []).flatMap((ev): Type[] => {
    let data: Type;
    if (ev.source.kind === 'custom') data = ty.lit(members(ev.source.payload, 'response').map((m) => ty.prop(m.key, m.type, m.optional)));
    else {
      const c = at.collections.find((x) => x.key === (ev.source as { collection: string }).collection);
      if (!c) return [];
      data = ty.ref(`import(${literal(`./${version}/${c.name}.js`)}).${c.typeName}`);
    }
    return [ty.lit([ty.prop('type', ty.str(ev.type)), ty.prop('timestamp', ty.ref('string')), ty.prop('data', data)])];
  });
  return events.length > 0 ? ty.union(events) : null;
}

/** The options of the index's example call, as written: `{ baseUrl: ..., bearer: TOKEN }`, or `{}`. */
const exampleOptions = (members: string): string => (members === '' ? '{}' : `{ ${members} }`);

/** The view of the index module. */
export function buildIndexView(api: ApiIR): ClientIndexView {
  const base = pascalCase(api.name);
  const features = clientFeatures(api);
  const { tokenUrl } = features;
  // `auth` takes what `clientCredentials` builds, which only a client credentials flow's client has.
  const omit = [...(takesBearer(api.auth) ? [] : ['bearer']), ...(tokenUrl ? [] : ['auth']), ...(api.auth.apiKey ? [] : ['apiKey'])];
  const released = api.versions.filter((v) => v.released !== undefined);
  const shown = released[released.length - 1] ?? api.versions[api.versions.length - 1];
  const listed = shown ? project(api, shown.name).collections.find((c) => c.operations.includes('list')) : undefined;
  const credential = tokenUrl
    ? ', auth: clientCredentials({ clientId: ID, clientSecret: SECRET })'
    : takesBearer(api.auth)
      ? ', bearer: TOKEN'
      : api.auth.apiKey
        ? ', apiKey: KEY'
        : '';
  const options = omit.length > 0 ? ty.ref('Omit', [ty.ref('ClientOptions'), ty.union(omit.map(ty.str))]) : ty.ref('ClientOptions');
  // With servers declared, `baseUrl` defaults to the first.
  const servers = api.servers[0];
  return {
    title: api.title,
    clientName: `${base}Client`,
    factoryName: `create${base}Client`,
    optionsName: `${base}ClientOptions`,
    optionsType: servers ? ty.ref('WithDefaultBaseUrl', [options]) : options,
    baseUrl: servers ? literal(servers.url) : false,
    optionsImports: e.specifiers([...(tokenUrl ? ['Auth'] : []), 'ClientOptions', ...(servers ? ['WithDefaultBaseUrl'] : [])]),
    transportCall: e.call('createTransport', [
      servers ? e.obj([e.spread(e.id('options')), e.prop('baseUrl', e.raw('options.baseUrl ?? BASE_URL'))]) : e.id('options'),
      e.id('API_KEY_HEADER'),
      e.id('VERSION_HEADER'),
    ]),
    factoryParams: e.params([`options: ${base}ClientOptions`]),
    apiKeyHeader: JSON.stringify(api.auth.apiKey?.header ?? null),
    versionHeader: JSON.stringify(api.versioning.in === 'header' ? api.versioning.header : null),
    runtimeExports: RUNTIME_EXPORTS.filter((x) => has(features, x.feature) && x.values.length + x.types.length > 0).map((x) => ({
      typeOnly: x.values.length === 0,
      specifiers: e.specifiers(x.values.length === 0 ? x.types : [...x.values, ...x.types.map((t) => `type ${t}`)]),
      module: literal(`./runtime/${x.module}.js`),
    })),
    tokenUrl: tokenUrl === null ? false : literal(tokenUrl),
    clientCredentials: tokenUrl === null ? false : e.call('oauth.clientCredentials', [e.id('credentials'), e.str(tokenUrl)]),
    versions: api.versions.map((v) => {
      const id = versionIdentifier(v.name);
      return {
        key: propertyKey(v.name),
        version: v.name,
        module: literal(`./${v.name}.js`),
        imports: e.specifiers([`create${id}`, `type ${base}${id}`]),
        factoryCall: e.call(`create${id}`, [e.id('t')]),
        namespaceName: `${base}${id}`,
        factoryName: `create${id}`,
        clientFactoryName: `create${base}${id}Client`,
        typesAlias: id,
        docLines: versionDocLines(api, v),
      };
    }),
    versionClient: `create${base}${versionIdentifier(shown?.name ?? 'v1')}Client`,
    example:
      shown && listed
        ? {
            options: exampleOptions(servers ? credential.slice(2) : `baseUrl: 'https://api.example.com'${credential}`),
            collection: `${accessor(shown.name)}${accessor(listed.name)}`,
          }
        : false,
  };
}

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'client/collection': ClientCollectionView;
    'client/index': ClientIndexView;
    'client/version': VersionFileView;
  }
}
