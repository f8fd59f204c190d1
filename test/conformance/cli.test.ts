/**
 * `restgen conformance` on the command line: usage errors are one line and exit 2 (a server that cannot be
 * reached too); `--version` names an API version, not restgen's; the text report shows each failure with its
 * version, collection, operation, request and answer, and never the credential; the JSON and JUnit reports are
 * well-formed and agree with it.
 */
import { XMLParser } from 'fast-xml-parser';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { SHOP_BUGS } from './buggy-handlers.ts';
import { loadExample, stopAll, type Example, type Handlers } from './helpers.ts';
import type { Running } from '../server/helpers.ts';

let shop: Example;
let good: Running;
let broken: Running;
const SECRET = 'Bearer s3cret-token-value';
const bug = SHOP_BUGS.find((b) => b.name === 'non-atomic conditional update')!;

beforeAll(async () => {
  shop = await loadExample('shop');
  good = await shop.start();
  broken = await shop.start({ wrap: (h: Handlers, dir) => bug.wrap!(h, dir, shop.ir) });
});
afterAll(stopAll);

const run = (...argv: string[]) => runCli(process.cwd(), ['conformance', SHOP_API, ...argv]);
const narrow = ['--only', 'customers', '--version', 'v3', '--seed', '5', '--quiet'];

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('usage errors: one line, exit 2, no report; a server that cannot be reached: exit 3', () => {
  const cases: [string, () => string[], RegExp][] = [
    ['no --url', () => [], /--url is required: the base URL of the running server/],
    ['a URL that is not http', () => ['--url', 'ftp://example.com'], /--url must be an http:\/\/ or https:\/\/ URL \(got 'ftp:\/\/example.com'\)/],
    ['a header without a colon', () => ['--url', good.url, '--header', 'Authorization Bearer x'], /--header takes 'Name: value'/],
    ['an unknown version', () => ['--url', good.url, '--version', 'v9'], /unknown version 'v9'; the API declares v1, v2, v3/],
    [
      'a misspelt collection',
      () => ['--url', good.url, '--only', 'custmers'],
      /unknown collection 'custmers' \(did you mean 'customers'\?\); the API has customers, orders, coupons/,
    ],
    ["restgen's own collection", () => ['--url', good.url, '--only', 'webhook_endpoints'], /webhook_endpoints is restgen's own collection/],
    [
      'a collection the versions checked do not have',
      () => ['--url', good.url, '--only', 'coupons', '--version', 'v1'],
      /coupons exists in none of the versions checked \(v1\)/,
    ],
    ['an unknown format', () => ['--url', good.url, '--format', 'xml'], /--format must be one of text, json, junit \(got 'xml'\)/],
    ['too little concurrency', () => ['--url', good.url, '--concurrency', '1'], /--concurrency must be a whole number from 2 to 30 \(got '1'\)/],
    ['a body cap of no size', () => ['--url', good.url, '--max-body', '0'], /--max-body must be a whole number from 1 to 1024 \(got '0'\)/],
    ['a deadline that is not a number', () => ['--url', good.url, '--deadline', 'soon'], /--deadline must be a whole number from 1 to 86400 \(got 'soon'\)/],
  ];
  for (const [name, argv, message] of cases)
    it(name, async () => {
      const result = await run(...argv());
      expect(result.code).toBe(2);
      expect(result.out).toBe('');
      expect(result.err.trim().split('\n')).toHaveLength(1);
      expect(result.err).toMatch(/^restgen conformance: /);
      expect(result.err).toMatch(message);
    });

  it('a server that cannot be reached: exit 3, the run could not complete', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await run('--url', url, '--quiet');
    expect(result.code).toBe(3);
    expect(result.out).toBe('');
    expect(result.err).toMatch(
      new RegExp(`^restgen conformance: cannot reach ${url}: .*ECONNREFUSED.*; is the server running, and is --url its base URL\\?\\n$`),
    );
  });
});

describe('reports', () => {
  it('exits 0 when every check holds; --version names the API version checked', async () => {
    const result = await run('--url', good.url, '--header', `Authorization: ${SECRET}`, ...narrow);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/^restgen conformance: Shop API at http:\/\/127\.0\.0\.1:\d+ \(v3\)\n/);
    expect(result.out).toMatch(/\n\d+ checks: \d+ passed, 0 failed, 0 skipped; \d+ requests; 0 records left behind\n$/);
    expect(result.err).toBe('');
  });

  it('text: exits 1 and shows each failure with version, collection, check, operation, request and answer, the credential redacted', async () => {
    const result = await run('--url', broken.url, '--header', `Authorization: ${SECRET}`, ...narrow);
    expect(result.code).toBe(1);
    const failure = result.out.split('\n\n').find((block) => block.startsWith('FAIL  v3  customers  if-match-update  (update)'))!;
    expect(failure).toBeDefined();
    expect(failure).toMatch(/5 concurrent writes with the same If-Match answered \[(200|412)(, (200|412)){4}\]; expected exactly one 200 and 4 × 412/);
    expect(failure).toMatch(new RegExp(`request: PATCH ${broken.url}/v3/customers/[0-9a-f-]{36}\\n`));
    expect(failure).toMatch(/ {9}if-match: "[\w-]+"\n/);
    expect(failure).toMatch(/ {9}authorization: <redacted>\n/);
    expect(failure).toMatch(/answer: {2}200\n {15}content-type: application\/json; charset=utf-8\n {15}etag: "[\w-]+"\n {15}\{"id":/);
    expect(result.out).not.toContain('s3cret');
    expect(result.out).toMatch(/\n\d+ checks: \d+ passed, 1 failed, 0 skipped;/);
  });

  it('json: the whole report, agreeing with the text one', async () => {
    const result = await run('--url', broken.url, '--header', `Authorization: ${SECRET}`, ...narrow, '--format', 'json');
    expect(result.code).toBe(1);
    expect(result.err).toBe('restgen conformance: 1 check failed.\n');
    const report = JSON.parse(result.out) as {
      formatVersion: number;
      versions: string[];
      summary: { checks: number; failed: number; passed: number };
      results: { check: string; status: string; description: string; failures: { request?: { headers: Record<string, string> } }[] }[];
    };
    expect(report.formatVersion).toBe(1);
    expect(report.versions).toEqual(['v3']);
    expect(report.summary.failed).toBe(1);
    expect(report.summary.checks).toBe(report.results.length);
    const failed = report.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.check)).toEqual(['if-match-update']);
    expect(failed[0]!.description).toBe('concurrent writes with the same If-Match: exactly one succeeds, the rest answer 412');
    expect(failed[0]!.failures[0]!.request!.headers['authorization']).toBe('<redacted>');
    expect(result.out).not.toContain('s3cret');
  });

  it('junit: one testsuite per version and collection, one testcase per check, the failure with its details', async () => {
    const result = await run('--url', broken.url, '--header', `Authorization: ${SECRET}`, ...narrow, '--format', 'junit');
    expect(result.code).toBe(1);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(result.out) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          tests: string;
          failures: string;
          testcase: { name: string; classname: string; failure?: { message: string; '#text': string } }[];
        };
      };
    };
    const suite = xml.testsuites.testsuite;
    expect(suite.name).toBe('v3 customers');
    expect(xml.testsuites.failures).toBe('1');
    expect(Number(suite.tests)).toBe(suite.testcase.length);
    const failing = suite.testcase.filter((t) => t.failure);
    expect(failing.map((t) => t.name)).toEqual(['if-match-update']);
    expect(failing[0]!.classname).toBe('restgen.conformance.v3.customers');
    expect(failing[0]!.failure!['#text']).toMatch(/request: PATCH http/);
    expect(result.out).not.toContain('s3cret');
  });
});
