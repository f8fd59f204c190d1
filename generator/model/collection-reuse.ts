/**
 * @module Built collections kept from one build to the next (within one `--watch` session), so that an edit
 * builds only the collections it changed. A collection's IR and its diagnostics are a function of its
 * definition (what the builders recorded: options, field defs, markers, sites, slips), its key, and what
 * building a collection reads of the API: the version names, whether the API takes credentials, and where a
 * diagnostic points when a builder call was not recorded. A collection is reused when its key is the same, the
 * context and its definition are the same data as the kept one's (see `same-data.ts`); a definition holding
 * anything that is more than plain data is built every time. Only the collections of the last build are kept (with the definitions they
 * were built from), so memory follows the API, not the number of builds. Definitions are taken as the module
 * left them when it was loaded (building reads them then, and so does the comparison at the next build).
 */
import type { CollectionDef } from '../dsl/defs.ts';
import { DiagnosticBag, type Diagnostic } from './diagnostics.ts';
import { sameData } from './same-data.ts';
import type { CollectionIR, SourceRef } from './ir.ts';

/** What building one collection reads of the API besides its definition. */
export interface CollectionContext {
  readonly versions: readonly string[];
  readonly hasAuth: boolean;
  readonly fallback: SourceRef;
}

/** One build's use of the kept collections. */
export interface CollectionBuild {
  /**
   * The collection `name` defined by `def`: the kept one when nothing it is built from changed (its
   * diagnostics reported into `into` again, in the same order), else `build` with a bag of its own.
   */
  collection(name: string, def: CollectionDef, build: (bag: DiagnosticBag) => CollectionIR, into: DiagnosticBag): CollectionIR;
  /** The build is complete: keep what it used (and only that) for the next one. */
  finish(): void;
}

/** Kept collections across builds; see {@link createCollectionReuse}. */
export interface CollectionReuse {
  /** Starts a build in `context`. A build that never finishes (it threw) leaves the kept collections as they were. */
  start(context: CollectionContext): CollectionBuild;
  /** How many collections the last finished build reused and built. */
  readonly stats: { reused: number; built: number };
}

interface Kept {
  /** The definition it was built from, compared with the next one by {@link sameData}. */
  readonly def: CollectionDef;
  /** What building read of the API besides the definition (see {@link CollectionContext}), as plain data. */
  readonly scope: readonly unknown[];
  readonly ir: CollectionIR;
  readonly diagnostics: readonly Diagnostic[];
}

/** A store of built collections for one session of builds (`--watch`). */
export function createCollectionReuse(): CollectionReuse {
  let kept = new Map<string, Kept>();
  const stats = { reused: 0, built: 0 };
  return {
    stats,
    start(context) {
      const { fallback } = context;
      // The fallback's line is read here: in a build without call sites (the only one given a reuse) it is a stand-in's.
      const scope = [context.versions, context.hasAuth, fallback.file, fallback.line, fallback.member, fallback.path ?? null];
      const used = new Map<string, Kept>();
      const counts = { reused: 0, built: 0 };
      return {
        collection(name, def, build, into) {
          const found = kept.get(name);
          if (found && sameData(found.scope, scope) && sameData(found.def, def)) {
            counts.reused++;
            into.items.push(...found.diagnostics.map((d) => ({ ...d })));
            used.set(name, found);
            return found.ir;
          }
          counts.built++;
          const bag = new DiagnosticBag();
          const ir = build(bag);
          into.items.push(...bag.items);
          used.set(name, { def, scope, ir, diagnostics: bag.items.map((d) => ({ ...d })) });
          return ir;
        },
        finish() {
          kept = used;
          Object.assign(stats, counts);
        },
      };
    },
  };
}
