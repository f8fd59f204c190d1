// The physical floor of a generation, as the issue defines it: start node, read the API, write the same files
// and bytes. Measured as a whole process, like restgen's paths: args are the API file, one blob holding every
// generated file's bytes with its index (written by the bench beforehand, so getting the bytes costs one
// read), and the folder to write them into (which the bench removes before each run). Plain JavaScript, no loader.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [api, blobFile, indexFile, outDir] = process.argv.slice(2);
readFileSync(api, 'utf8');
const blob = readFileSync(blobFile);
const index = JSON.parse(readFileSync(indexFile, 'utf8'));
const made = new Set();
let at = 0;
for (const [rel, length] of index) {
  const file = path.join(outDir, rel);
  const dir = path.dirname(file);
  if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
  writeFileSync(file, blob.subarray(at, (at += length)));
}
