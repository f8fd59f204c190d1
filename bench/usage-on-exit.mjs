// Preloaded (`node --import`) into every process the bench measures: when the process exits, it writes its
// own resource usage (CPU time of all its threads, peak resident memory) to the file the bench names in
// RESTGEN_BENCH_USAGE. Node has no getrusage(RUSAGE_CHILDREN), so the measured process reports itself;
// plain JavaScript so that it needs no loader and works the same for restgen's sources, its dist and orval.
import { writeFileSync } from 'node:fs';
import { peakRssKiB } from './peak-rss.mjs';

const target = process.env.RESTGEN_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ userUs: usage.userCPUTime, systemUs: usage.systemCPUTime, maxRssKiB: peakRssKiB() }));
  });
}
