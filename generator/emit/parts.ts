/**
 * @module The parts restgen can generate, as data: what each needs of the others, the npm packages its
 * output imports (the generated code's peer dependencies, with the version ranges it is tested with), and
 * which files of the output folder it owns. Adding a package the generated server imports is one line in
 * `peers`; `package.json`'s `peerDependencies` must list the same ranges (a test compares them).
 */
import type { Part } from '../dsl/define-config.ts';
import { RUNTIME } from './runtime-package.ts';

/** What restgen knows about one part. */
export interface PartInfo {
  /** One line for help texts and the docs. */
  readonly summary: string;
  /** Parts whose output this part's output imports or serves; generating it generates them too. */
  readonly needs: readonly Part[];
  /** npm packages the part's output imports, with the version ranges restgen supports. */
  readonly peers: Readonly<Record<string, string>>;
  /**
   * Peers that only one output file imports, and only for some APIs, with that file: jose is imported (through
   * `@restgen/runtime/jwt`) by `server/routes.ts` when the API takes bearer tokens.
   */
  readonly peersImportedBy?: Readonly<Record<string, { readonly file: string; readonly from: string }>>;
  /** Whether a file of the output folder (relative POSIX path) is this part's. */
  readonly owns: (file: string) => boolean;
}

const ZOD = '^4.0.0';
const top = (file: string): string => file.split('/')[0] ?? '';

/** Every part. Version folders (`v1/`, ...) hold the zod schemas; the other parts have a folder or file of their own. */
export const PARTS: { readonly [P in Part]: PartInfo } = {
  zod: {
    summary: 'zod schemas and types per version (vN/, zod-helpers.ts)',
    needs: [],
    peers: { zod: ZOD },
    owns: (file) => !['server', 'client', 'openapi', 'CHANGES.md', 'UPGRADING.md'].includes(top(file)),
  },
  server: {
    summary: 'Fastify routes for every version, migrations, auth, rate limits, in-memory handlers (server/)',
    needs: ['zod', 'openapi'],
    peers: { [RUNTIME.name]: RUNTIME.range, fastify: '^5.1.0', '@fastify/rate-limit': '^10.3.0 || ^11.0.0', jose: '^6.0.1', zod: ZOD },
    peersImportedBy: { jose: { file: 'server/routes.ts', from: `${RUNTIME.name}/jwt` } },
    owns: (file) => top(file) === 'server',
  },
  client: {
    summary: 'a typed fetch client with one namespace per version (client/); needs no package',
    needs: [],
    peers: {},
    owns: (file) => top(file) === 'client',
  },
  openapi: {
    summary: 'one OpenAPI 3.1 document per version (openapi/)',
    needs: [],
    peers: {},
    owns: (file) => top(file) === 'openapi',
  },
  changes: {
    summary: 'the version diff report (CHANGES.md) and the upgrade guide (UPGRADING.md)',
    needs: [],
    peers: {},
    owns: (file) => file === 'CHANGES.md' || file === 'UPGRADING.md',
  },
};

/** Every part, in the order they are listed and generated. */
export const PART_NAMES: readonly Part[] = ['zod', 'client', 'openapi', 'server', 'changes'];

/** True for a part's name. */
export function isPart(name: unknown): name is Part {
  return typeof name === 'string' && (PART_NAMES as readonly string[]).includes(name);
}

/** `parts` and every part they need, in {@link PART_NAMES} order. */
export function withNeeds(parts: readonly Part[]): Part[] {
  const wanted = new Set<Part>();
  const add = (p: Part): void => {
    if (wanted.has(p)) return;
    wanted.add(p);
    for (const n of PARTS[p].needs) add(n);
  };
  for (const p of parts) add(p);
  return PART_NAMES.filter((p) => wanted.has(p));
}

/** The part that owns a file of the output folder. */
export function partOf(file: string): Part {
  return PART_NAMES.find((p) => PARTS[p].owns(file)) ?? 'zod';
}

/**
 * The packages the output of `parts` imports, by name (sorted), with their version ranges. `imports(file,
 * module)` says whether the generated `file` imports `module`, for the peers only some APIs need (see
 * {@link PartInfo.peersImportedBy}); without it every peer counts.
 */
export function peersOf(parts: readonly Part[], imports?: (file: string, name: string) => boolean): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const p of parts) {
    const only = PARTS[p].peersImportedBy ?? {};
    for (const [name, range] of Object.entries(PARTS[p].peers)) {
      const via = only[name];
      if (via === undefined || !imports || imports(via.file, via.from)) peers[name] = range;
    }
  }
  return Object.fromEntries(Object.entries(peers).sort(([a], [b]) => (a < b ? -1 : 1)));
}
