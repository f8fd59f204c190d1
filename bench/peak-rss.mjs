// The peak resident memory of this process alone, in KiB: Linux's VmHWM, the high-water mark of the process's own
// memory. getrusage's maxrss (process.resourceUsage().maxRSS) is not that on Linux: a process started by fork and
// exec keeps the forked copy's memory in it, so a child of a large parent (a test worker, the bench itself) reports
// at least what the parent held. Elsewhere, where /proc/self/status does not exist, maxrss is what there is.
// Plain JavaScript: the preload and the compiled server targets import it without a loader.
import { readFileSync } from 'node:fs';

/** This process's peak resident memory in KiB. */
export function peakRssKiB() {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux.
  }
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
}
