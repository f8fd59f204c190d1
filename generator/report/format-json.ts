/**
 * @module The JSON report for tools, and its published JSON Schema (`restgen diff --schema`). Every finding
 * carries its builder call as `source` (`file`, `line`, `column`), what changed (`changes`, before and
 * after), whether it fails the run, and its fingerprint; a `--base` report names the commits compared.
 */
import { failsOn } from '../diff/gate.ts';
import { sourceOf, type FormatOptions } from './format-options.ts';
import type { DiffReport, Finding } from '../diff/types.ts';

/** The version of the report's shape; bumped only when a member changes meaning or is removed. */
export const REPORT_FORMAT_VERSION = 1;

function findingJson(f: Finding, options: FormatOptions): Record<string, unknown> {
  const source = sourceOf(f, options.relativeTo);
  return {
    id: f.id,
    level: f.level,
    ...(f.ruleLevel ? { ruleLevel: f.ruleLevel } : {}),
    version: f.version,
    location: f.location,
    direction: f.direction,
    message: f.message,
    changes: f.changes.map((c) => ({
      aspect: c.aspect,
      ...(c.before !== undefined ? { before: c.before } : {}),
      ...(c.after !== undefined ? { after: c.after } : {}),
    })),
    affects: { routes: f.affects.routes, client: f.affects.client, mcp: f.affects.mcp },
    ...(source ? { source } : {}),
    ...(f.hint ? { hint: f.hint } : {}),
    ...(f.unreleased ? { unreleased: true } : {}),
    ...(f.accepted ? { accepted: f.accepted } : {}),
    fails: failsOn(f, options.failOn ?? 'none'),
    fingerprint: f.fingerprint,
  };
}

/** The report as JSON (two-space indented, trailing newline), valid against {@link REPORT_SCHEMA}. */
export function formatJson(report: DiffReport, options: FormatOptions = {}): string {
  const findings = report.findings.map((f) => findingJson(f, options));
  const data = {
    formatVersion: REPORT_FORMAT_VERSION,
    from: report.from,
    to: report.to,
    ...(report.git ? { git: report.git } : {}),
    failOn: options.failOn ?? 'none',
    summary: { ...report.summary, failing: findings.filter((f) => f.fails).length },
    versions: report.versions,
    comparisons: report.comparisons,
    findings,
  };
  return JSON.stringify(data, null, 2) + '\n';
}

const level = { enum: ['breaking', 'warning', 'safe'] } as const;
const text = { type: 'string' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const strings = { type: 'array', items: text } as const;

/** The JSON Schema (2020-12) of the JSON report, as `restgen diff --schema` prints it. */
export const REPORT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:restgen:diff-report:1',
  title: 'restgen diff report',
  description: 'The output of `restgen diff --format json`: findings between two versions of an API, or between a git ref and the working tree.',
  type: 'object',
  additionalProperties: false,
  required: ['formatVersion', 'from', 'to', 'failOn', 'summary', 'versions', 'comparisons', 'findings'],
  properties: {
    formatVersion: { const: REPORT_FORMAT_VERSION },
    from: { ...text, description: 'A version, or the git ref given to --base.' },
    to: { ...text, description: 'A version, or "working tree".' },
    git: {
      type: 'object',
      description: 'With --base: the commits compared.',
      additionalProperties: false,
      required: ['base', 'head'],
      properties: {
        base: {
          type: 'object',
          additionalProperties: false,
          required: ['ref', 'commit'],
          properties: { ref: text, commit: { type: 'string', pattern: '^[0-9a-f]{40,64}$' } },
        },
        head: {
          type: 'object',
          additionalProperties: false,
          required: ['commit', 'dirty'],
          properties: {
            commit: { anyOf: [{ type: 'string', pattern: '^[0-9a-f]{40,64}$' }, { type: 'null' }] },
            dirty: { type: 'boolean', description: 'Whether the working tree had uncommitted changes.' },
          },
        },
      },
    },
    failOn: { enum: ['breaking', 'warning', 'none'] },
    summary: {
      type: 'object',
      additionalProperties: false,
      required: ['breaking', 'warning', 'safe', 'failing'],
      properties: {
        breaking: count,
        warning: count,
        safe: count,
        failing: { ...count, description: 'Findings that reach failOn (unreleased and accepted ones never do).' },
      },
    },
    versions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: text,
          released: date,
          deprecated: date,
          sunset: date,
          docs: { ...text, description: 'The page that tells clients how to move off the version.' },
        },
      },
    },
    comparisons: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['from', 'to', 'version'], properties: { from: text, to: text, version: text } },
    },
    findings: { type: 'array', items: { $ref: '#/$defs/finding' } },
  },
  $defs: {
    finding: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'level', 'version', 'location', 'direction', 'message', 'changes', 'affects', 'fails', 'fingerprint'],
      properties: {
        id: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$', description: 'The stable finding id; every id has one level.' },
        level: { ...level, description: "The level that counts: the rule's, or a severity override's." },
        ruleLevel: { ...level, description: "The rule's own level, when a severity override changed it." },
        version: text,
        location: { ...text, description: 'A dotted path from the collection (orders.shipping.zip, orders.lines[]), a collection, or an API-wide key.' },
        direction: { enum: ['request', 'response', 'both'], description: 'The side(s) of the data flow that decided the level.' },
        message: text,
        changes: {
          type: 'array',
          minItems: 1,
          items: { type: 'object', additionalProperties: false, required: ['aspect'], properties: { aspect: text, before: {}, after: {} } },
        },
        affects: {
          type: 'object',
          description: 'What a change reaches, on the sides that decided its level.',
          additionalProperties: false,
          required: ['routes', 'client', 'mcp'],
          properties: {
            routes: { ...strings, description: 'METHOD /path, e.g. POST /v2/orders.' },
            client: { ...strings, description: 'Methods of the generated client, version.collection.method: v2.orders.create.' },
            mcp: { ...strings, description: "Tools of the version's MCP server, collection_operation: orders_create (none when the API has no MCP server)." },
          },
        },
        source: {
          type: 'object',
          description: 'The builder call that made the change.',
          additionalProperties: false,
          required: ['file', 'line', 'column'],
          properties: { file: text, line: { type: 'integer', minimum: 1 }, column: { type: 'integer', minimum: 1 } },
        },
        hint: {
          type: 'object',
          additionalProperties: false,
          required: ['marker', 'confidence'],
          properties: { marker: text, confidence: { enum: ['high', 'low'] } },
        },
        unreleased: { const: true, description: 'On a version not released at the base: never fails.' },
        accepted: {
          type: 'object',
          description: 'Recorded as a deliberate break in restgen.lock.json: never fails.',
          additionalProperties: false,
          required: ['fingerprint', 'version', 'id', 'location', 'message'],
          properties: { fingerprint: text, version: text, id: text, location: text, message: text, reason: text, acceptedOn: date },
        },
        fails: { type: 'boolean', description: 'Whether this finding reaches failOn.' },
        fingerprint: { type: 'string', pattern: '^[0-9a-f]{16}$' },
      },
    },
  },
} as const;
