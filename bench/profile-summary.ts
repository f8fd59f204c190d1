/**
 * @module Summarises a V8 CPU profile (`node --cpu-prof`): self time per package or restgen folder, and
 * the functions with the most self time, so that where a run's time goes can be read without a
 * browser. Run: `npx jiti bench/profile-summary.ts <file.cpuprofile> [top]`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where a script belongs: `npm:<package>`, a restgen folder, `node:` internals, or a V8 category. */
export function bucketOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `npm:${pkg[1]}`;
  if (path.startsWith('node:')) return 'node internals';
  if (path.startsWith(ROOT)) return path.slice(ROOT.length).split('/').slice(0, 2).join('/');
  return path;
}

/**
 * Self time in milliseconds per bucket and per function, largest first. Time in Node's internals (compiling
 * a module, reading a file) is charged to the nearest caller outside them, so a package's bucket includes
 * what loading it cost.
 */
export function summarise(profile: Profile): { total: number; buckets: [string, number][]; functions: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const chargedTo = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      const bucket = bucketOf(url, functionName);
      if (url && bucket !== 'node internals') return bucket;
    }
    const { url, functionName } = byId.get(id)!.callFrame;
    return bucketOf(url, functionName);
  };
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    total += ms;
    const bucket = bucketOf(url, functionName);
    const owner = chargedTo(id);
    buckets.set(owner, (buckets.get(owner) ?? 0) + ms);
    const file = url.replace(/^file:\/\//, '');
    const where = file.startsWith(ROOT) ? file.slice(ROOT.length) : bucket;
    const fn = `${functionName || '(anonymous)'} ${url ? `${where}:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => b[1] - a[1]);
  return { total, buckets: sorted(buckets), functions: sorted(functions) };
}

const file = process.argv[2];
if (file) {
  const top = Number(process.argv[3] ?? 25);
  const { total, buckets, functions } = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const line = ([name, ms]: [string, number]) => `${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`;
  console.log(`total sampled: ${total.toFixed(0)} ms\n\nself time by package / folder (Node internals charged to their caller):`);
  for (const b of buckets.slice(0, top)) console.log(line(b));
  console.log('\nfunctions with the most self time:');
  for (const f of functions.slice(0, top)) console.log(line(f));
}
