// Checks the shape of restgen's own sources, as part of npm test (npm run structure); exits 1 with every problem:
// - no import cycle among the modules of the generator, every workspace package's sources and the copied runtimes
//   (type-only and dynamic imports included: a cycle of types still makes two modules one unit to read);
// - no cycle between the generator's folders (one direction of flow: model → emit → report, never back);
// - one meaning per exported type name in the generator (no two modules declare and export the same name);
// - packages read through their declared entries: no relative import into packages/<name>/ from outside it (tests
//   excepted: they test a package's sources as such).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeCycle, findCycles } from './structure/find-cycles.ts';
import { folderGraph, generatorFolderOf } from './structure/folder-graph.ts';
import { cycleFreeFolders, importGraph, packageCrossings } from './structure/import-graph.ts';
import { typeNameClashes } from './structure/type-names.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folders = cycleFreeFolders(ROOT);
const graph = importGraph(ROOT, folders);
const problems: string[] = [];

for (const cycle of findCycles(graph)) problems.push(`import cycle: ${describeCycle(cycle)}`);
const byFolder = folderGraph(graph, generatorFolderOf);
for (const cycle of findCycles(byFolder.graph)) {
  const steps = cycle.modules.map((from, i) => byFolder.witness.get(`${from}\0${cycle.modules[(i + 1) % cycle.modules.length]}`));
  problems.push(`folders import each other: ${cycle.modules.join(' → ')} → ${cycle.modules[0]} (${steps.join('; ')})`);
}
const generatorModules = [...graph.keys()].filter((m) => m.startsWith('generator/'));
for (const [name, files] of typeNameClashes(ROOT, generatorModules))
  problems.push(`type ${name} is declared and exported by ${files.join(' and ')}: give each meaning its own name`);

const packages = folders.filter((f) => f.startsWith('packages/')).map((f) => path.posix.dirname(f));
for (const crossing of packageCrossings(ROOT, ['generator', 'runtime', 'bench', 'scripts', ...packages]))
  problems.push(`${crossing.from} imports '${crossing.spec}', a path into ${crossing.into}: import the package by a declared entry (its package.json exports)`);

for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s). A cycle: move what both sides need into a module of their own, or make one stop importing the other.`);
  process.exit(1);
}
console.log(
  `structure: ${graph.size} modules of ${folders.join(', ')}: no import cycles, the generator's folders in one direction, one meaning per type name, packages read through their entries`,
);
