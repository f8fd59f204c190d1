/**
 * The report formats: JSON exactly in the documented shape, GitHub annotations with file and line,
 * Markdown and text for people.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { diffVersions } from '../../generator/diff/diff-history.ts';
import { formatGithub, formatJson, formatMarkdown, formatReport, formatText } from '../../generator/report/format.ts';
import { irOf } from './helpers.ts';

const api = irOf(
  defineApi({
    name: 'shop',
    versions: { v1: { released: '2026-01-01' }, v2: {} },
    collections: {
      orders: collection({
        fields: { id: f.id(), quantity: f.int().min(1).renamedFrom('qty', 'v2'), note: f.string().max(10).optional().addedIn('v2') },
        operations: ['get', 'create'],
      }),
    },
  }),
);
const report = diffVersions(api, 'v1', 'v2');

describe('json', () => {
  it('has exactly the documented shape', () => {
    const data = JSON.parse(formatJson(report, { failOn: 'breaking', relativeTo: process.cwd() })) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['formatVersion', 'from', 'to', 'failOn', 'summary', 'versions', 'comparisons', 'findings']);
    expect(data.summary).toEqual({ breaking: 1, warning: 0, safe: 1, failing: 1 });
    expect(data.versions).toEqual([{ name: 'v1', released: '2026-01-01' }, { name: 'v2' }]);
    expect(data.comparisons).toEqual([{ from: 'v1', to: 'v2', version: 'v2' }]);
    const findings = data.findings as Record<string, unknown>[];
    const loc = report.findings[0]!.loc!;
    expect(loc.member).toBe('renamedFrom');
    expect(findings[0]).toEqual({
      id: 'field-renamed',
      level: 'breaking',
      version: 'v2',
      location: 'orders.quantity',
      direction: 'both',
      message: 'orders.qty was renamed to quantity',
      changes: [{ aspect: 'name', before: 'qty', after: 'quantity' }],
      affects: { routes: ['GET /v2/orders/{id}', 'POST /v2/orders'], client: ['v2.orders.get', 'v2.orders.create'], mcp: ['orders_get', 'orders_create'] },
      source: { file: 'test/diff/format.test.ts', line: loc.line, column: 1 },
      fails: true,
      fingerprint: report.findings[0]!.fingerprint,
    });
    expect(findings[1]).toMatchObject({
      id: 'optional-field-added',
      fails: false,
      changes: [{ aspect: 'field', after: { name: 'note', type: 'string', optional: true, nullable: false } }],
    });
    expect(formatJson(report).endsWith('}\n')).toBe(true);
  });
});

describe('github', () => {
  it('writes one annotation per finding with the builder file and line', () => {
    const lines = formatGithub(report, { relativeTo: process.cwd() }).trimEnd().split('\n');
    const loc = report.findings[0]!.loc!;
    expect(lines[0]).toBe(
      `::error file=test/diff/format.test.ts,line=${loc.line},title=breaking field-renamed (orders.quantity)::orders.qty was renamed to quantity [v2, both]`,
    );
    expect(lines[1]).toMatch(/^::notice file=test\/diff\/format\.test\.ts,line=\d+,title=safe optional-field-added \(orders\.note\)::/);
    expect(lines[2]).toBe('restgen diff v1 → v2: 1 breaking, 0 warnings, 1 safe');
  });
});

describe('text and markdown', () => {
  it('text lists each finding with its level, id, location, message and routes', () => {
    const text = formatText(report);
    expect(text.split('\n')[0]).toBe('restgen diff v1 → v2: 1 breaking, 0 warnings, 1 safe');
    expect(text).toContain('breaking field-renamed  orders.quantity  [v2, both]');
    expect(text).toContain('routes: GET /v2/orders/{id}, POST /v2/orders');
  });
  it('markdown has a summary table and a row per finding', () => {
    const md = formatMarkdown(report);
    expect(md).toContain('| 1 | 0 | 1 |');
    const fingerprint = report.findings[0]!.fingerprint;
    expect(md).toContain(
      `| **breaking** | v2 | \`orders.quantity\` | orders.qty was renamed to quantity (both) | \`field-renamed\` | \`GET /v2/orders/{id}\`, \`POST /v2/orders\` | \`v2.orders.get\`, \`v2.orders.create\` | \`orders_get\`, \`orders_create\` | \`${fingerprint}\` |`,
    );
  });
  it('formatReport dispatches by name', () => {
    expect(formatReport(report, 'json')).toBe(formatJson(report));
    expect(formatReport(report, 'text')).toBe(formatText(report));
  });
});
