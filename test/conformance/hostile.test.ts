/**
 * `restgen conformance` against hostile servers stays bounded and honest: a server that trickles its answer is cut
 * off after the request's bound (the bound is the whole exchange, not the time between bytes); a huge answer is read
 * only up to the size cap (the server sees the connection close long before its 600 MB are sent) and reported as a
 * failure; a server that answers 429 to everything gets at most the run's total wait; the deadline stops the checks
 * and the run still deletes its records; escape sequences in answers reach no report raw. Each ends the run as
 * incomplete, which the command exits 3 for. Clocks are injected where time is waited on; no test reads the time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatJson, formatJunit, formatText, runConformance, type Clock } from '@restgen/conformance';
import { runCli } from '../cli/run-cli.ts';
import { HEADER_API } from '../server/helpers.ts';
import { conform, failureLines, loadExample, stopAll, type Example } from './helpers.ts';

let notes: Example;
const raw: Server[] = [];
beforeAll(async () => {
  notes = await loadExample('notes');
});
afterAll(async () => {
  await stopAll();
  await Promise.all(raw.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A clock whose waits pass at once (virtual time, moved on by each sleep); timers of requests are real. */
function virtualClock(start = 0): Clock & { slept: number[]; time: number } {
  const clock = {
    time: start,
    slept: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.time += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    after(ms: number, fn: () => void) {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
  };
  return clock;
}

/**
 * A clock whose request bounds run out only when the test says so (`expire()`: every request in flight is then past
 * its bound), so a test shows a request cut off by its bound without waiting for it, and no other request of a busy
 * machine can be cut off by mistake.
 */
function manualTimers(): Clock & { expire(): void } {
  const pending = new Set<() => void>();
  return {
    now: () => 0,
    sleep: async () => {},
    after(_ms, fn) {
      pending.add(fn);
      return () => pending.delete(fn);
    },
    expire() {
      // On the next turn: the request in flight has registered its bound by then.
      setImmediate(() => {
        for (const fn of [...pending]) fn();
      });
    },
  };
}

/** A raw HTTP server on 127.0.0.1 that answers every request with `answer`. */
async function rawServer(answer: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  raw.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Whether a path names one record (`/labels/<id>`), the route the hostile answers replace. */
const isItem = (url: string) => /^\/(notes|labels)\/[0-9a-f-]{36}$/.test(url.split('?')[0]!);

describe('each request is bounded as a whole', () => {
  it('a server that trickles its answer a byte at a time is cut off after --timeout, and the run ends', async () => {
    const clock = manualTimers();
    let bytes = 0;
    const url = await rawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      // One byte now and then, forever: an idle timeout would never fire. The bound runs out after a few.
      const timer = setInterval(() => {
        response.write(' ');
        if (++bytes === 5) clock.expire();
      }, 5);
      response.on('close', () => clearInterval(timer));
    });
    const outcome = await runConformance(notes.contract, { url, clock, seed: 1, versions: ['2025-06'], only: ['labels'] });
    expect(outcome).toEqual({ kind: 'unreachable', message: `${url} gave no answer to the first request: no complete answer within 10 s (--timeout)` });
  });

  it('a get that trickles fails its check as a timeout, the run completes the rest and says it is incomplete', async () => {
    const clock = manualTimers();
    let trickled = 0;
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (request, reply) => {
          // The first get of a record trickles (a sequential request: the only one in flight when the bound runs
          // out); the rest of the run meets a well-behaved server.
          if (request.method !== 'GET' || !isItem(request.url) || trickled++ > 0) return;
          const body = new Readable({ read() {} });
          let bytes = 0;
          const timer = setInterval(() => {
            body.push(' ');
            if (++bytes === 5) clock.expire();
          }, 5);
          body.on('close', () => clearInterval(timer));
          return reply.type('application/json').send(body);
        }),
    });
    const report = await conform(notes.contract, server.url, { clock, timeout: 2000, versions: ['2025-06'], only: ['labels'] });
    const roundTrip = report.results.find((r) => r.check === 'round-trip')!;
    expect(roundTrip.status).toBe('failed');
    expect(roundTrip.failures[0]!.message).toBe('no answer: no complete answer within 2 s (--timeout)');
    expect(report.incomplete.map((i) => i.reason)).toEqual(['timeout']);
    expect(report.incomplete[0]!.message).toBe('1 request got no complete answer within 2 s (--timeout)');
    expect(report.leftovers).toEqual([]);
  });
});

describe('answers are read up to a size cap', () => {
  for (const declared of [false, true])
    it(`a 600 MB answer${declared ? ' with its Content-Length' : ', streamed'} is not read past the cap: a failed check, the run incomplete`, async () => {
      let pushed = 0;
      const server = await notes.start({
        mount: (app) =>
          app.addHook('onRequest', async (request, reply) => {
            if (request.method !== 'GET' || !isItem(request.url)) return;
            // 600 MB of one reused 64 KiB chunk, made as it is read: the test never holds it, and counts what was sent.
            const chunk = Buffer.alloc(64 * 1024, 0x20);
            const body = new Readable({
              read() {
                if (pushed >= 600e6) return void this.push(null);
                pushed += chunk.length;
                this.push(chunk);
              },
            });
            if (declared) reply.header('content-length', String(600e6));
            return reply.type('application/json').send(body);
          }),
      });
      const report = await conform(notes.contract, server.url, { maxBody: 1024 * 1024, versions: ['2025-06'], only: ['labels'] });
      const roundTrip = report.results.find((r) => r.check === 'round-trip')!;
      expect(roundTrip.failures[0]!.message).toBe("no answer: the answer's body is larger than 1 MiB (the cap; --max-body)");
      expect(report.incomplete.map((i) => i.reason)).toEqual(['oversize']);
      // Each oversize answer is cut off near the cap (a few MiB of socket buffers), nowhere near 600 MB.
      const answers = report.incomplete[0]!.count;
      expect(pushed).toBeLessThan(answers * 16 * 1024 * 1024);
      expect(report.leftovers).toEqual([]);
    });
});

describe('the exit code of a run that could not complete', () => {
  it('is 3, with the report on stdout and the reason on stderr', async () => {
    let sent = 0;
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (request, reply) => {
          // One get answers 2 MiB; the command reads 1.
          if (request.method === 'GET' && isItem(request.url) && sent++ === 0) return reply.type('application/json').send(`"${'x'.repeat(2 * 1024 * 1024)}"`);
        }),
    });
    const argv = ['conformance', HEADER_API, '--url', server.url, '--only', 'labels', '--version', '2025-06', '--max-body', '1', '--format', 'json', '--quiet'];
    const result = await runCli(process.cwd(), argv);
    expect(result.code).toBe(3);
    expect(result.err).toBe(
      'restgen conformance: 1 check failed.\nrestgen conformance: the run did not complete: 1 answer had a body larger than 1 MiB, which was not read on (--max-body).\n',
    );
    const report = JSON.parse(result.out) as { summary: { complete: boolean }; incomplete: { reason: string; count: number }[] };
    expect(report.summary.complete).toBe(false);
    expect(report.incomplete).toEqual([expect.objectContaining({ reason: 'oversize', count: 1 })]);
  });
});

describe('429 to everything', () => {
  it('waits at most --max-total-wait in all, then reports the 429s and the run as incomplete', async () => {
    const url = await rawServer((_request, response) => {
      response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/problem+json' });
      response.end('{"type":"about:blank","title":"Too Many Requests","status":429}');
    });
    const clock = virtualClock();
    const report = await conform(notes.contract, url, { clock, maxWait: 60_000, maxTotalWait: 10_000, versions: ['2025-06'], only: ['labels'] });
    const waited = clock.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(10_000);
    expect(waited).toBeGreaterThan(0);
    expect(report.incomplete.map((i) => i.reason)).toEqual(['rate-limited']);
    expect(report.incomplete[0]!.message).toMatch(
      /^\d+ requests still answered 429 when the waiting allowed was spent \(60 s per answer with --max-wait, 10 s in all with --max-total-wait, 6 attempts\)/,
    );
  });
});

describe('the run deadline', () => {
  it('stops the checks when it passes, skips the check it interrupts, and still deletes what the run made', async () => {
    const clock = virtualClock();
    let requests = 0;
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async () => {
          // Time passes with the requests: after the fortieth, the deadline (a minute) has passed.
          if (++requests === 40) clock.time += 61_000;
        }),
    });
    const report = await conform(notes.contract, server.url, { clock, deadline: 60_000, versions: ['2025-06'] });
    expect(failureLines(report)).toBe('');
    expect(report.incomplete).toEqual([
      expect.objectContaining({ reason: 'deadline', count: 1, message: expect.stringMatching(/^the run deadline of 60 s \(--deadline\) passed at 2025-06 /) }),
    ]);
    expect(report.results.some((r) => r.status === 'skipped' && r.reason === 'the run deadline passed while it ran')).toBe(true);
    expect(report.leftovers).toEqual([]);
    const left = await server.call('GET', '/notes?limit=3', { headers: { 'api-version': '2025-06' } });
    expect(left.body.data).toEqual([]);
  });
});

describe('escape sequences from the server', () => {
  const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\r\x1b[1A12 checks: 12 passed, 0 failed\x9b31m';

  it('reach no report raw: text, JSON and JUnit show them escaped, and JUnit stays well-formed XML', async () => {
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (request, reply) => {
          if (request.method === 'GET' && isItem(request.url)) return reply.code(200).type('text/plain').send(HOSTILE);
        }),
    });
    const report = await conform(notes.contract, server.url, { versions: ['2025-06'], only: ['labels'] });
    expect(report.results.find((r) => r.check === 'round-trip')!.status).toBe('failed');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there.
    const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
    const text = formatText(report);
    expect(text).not.toMatch(controls);
    expect(text).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x1b[1A12 checks: 12 passed, 0 failed\\x9b31m');
    const json = formatJson(report);
    expect(json).not.toMatch(controls);
    // The JSON report keeps the data: parsed, the body is what the server sent.
    const parsed = JSON.parse(json) as { results: { failures: { answer?: { body?: unknown } }[] }[] };
    expect(parsed.results.flatMap((r) => r.failures).some((f) => f.answer?.body === HOSTILE)).toBe(true);
    const junit = formatJunit(report);
    expect(junit).not.toMatch(controls);
    expect(() => new XMLParser().parse(junit)).not.toThrow();
  });

  it('the command prints no control character on stdout either', async () => {
    const server = await notes.start({
      mount: (app) =>
        app.addHook('onRequest', async (request, reply) => {
          if (request.method === 'GET' && isItem(request.url)) return reply.code(200).type('text/plain').send(HOSTILE);
        }),
    });
    const result = await runCli(process.cwd(), ['conformance', HEADER_API, '--url', server.url, '--only', 'labels', '--version', '2025-06', '--quiet']);
    expect(result.code).toBe(1);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there.
    expect(result.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(result.out).toContain('\\x1b]0;pwned');
  });
});
