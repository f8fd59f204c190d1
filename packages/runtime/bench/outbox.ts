/**
 * @module The memory outbox under a backlog: a dead endpoint's retries wait for hours, and the dispatcher
 * polls every second. For 10,000, 100,000 and 1,000,000 waiting deliveries plus one due now, the time of
 * the claim that finds the due one, of the polls after it that find nothing, and the outbox's heap bytes per
 * waiting delivery (after a full GC, when run with `--expose-gc`). A building block of this package measured
 * alone, so it lives with its sources; `npm run bench` runs it. Run: `npx jiti packages/runtime/bench/outbox.ts`.
 */
import { createMemoryOutbox, type Delivery } from '../src/webhook-store.ts';

const gc = (globalThis as { gc?: () => void }).gc;
const heapUsed = (): number => (gc?.(), gc?.(), process.memoryUsage().heapUsed);
const ms = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;

console.log('memory outbox, one delivery due among many waiting (dispatcher polls claim up to 10, lease 15 s)\n');
console.log('| waiting | claim finding the due one | a poll after it (median of 10) | bytes per waiting delivery |\n|---|---|---|---|');
/** One size: its table row. */
async function row(n: number): Promise<string> {
  const outbox = createMemoryOutbox();
  const now = 1_000_000;
  const backlog: Delivery[] = Array.from({ length: n }, (_, i) => ({
    id: `msg_${i}`,
    endpoint: 'dead',
    type: 'order.created',
    body: '{}',
    attempts: 3,
    dueAt: now + 3_600_000 + i,
  }));
  const before = heapUsed();
  await outbox.add(backlog);
  const bytes = gc ? ((heapUsed() - before) / n).toFixed(0) : 'run with --expose-gc';
  await outbox.add([{ id: 'due', endpoint: 'live', type: 'order.created', body: '{}', attempts: 0, dueAt: now }]);
  const t = process.hrtime.bigint();
  const claimed = await outbox.claim(now, 10, 15_000);
  const first = ms(t);
  if (claimed.length !== 1) throw new Error(`claimed ${claimed.length}, expected the one due delivery`);
  const polls: number[] = [];
  for (let poll = 1; poll <= 10; poll++) {
    const at = process.hrtime.bigint();
    await outbox.claim(now + poll * 1000, 10, 15_000);
    polls.push(ms(at));
  }
  const medianPoll = polls.sort((a, b) => a - b)[5]!;
  return `| ${n.toLocaleString('en')} | ${first.toFixed(2)} ms | ${medianPoll.toFixed(3)} ms | ${bytes} |`;
}

// A warm-up run compiles the outbox's code first (unreported).
await row(10_000);
for (const n of [10_000, 100_000, 1_000_000]) console.log(await row(n));
