/**
 * The upgrade guide: built from the diff engine's findings for each pair of released versions, grouped by
 * client method and event (a collection's answer changes also under the events that carry its resource),
 * with what to do and the before and after values; written as UPGRADING.md with the other outputs and kept
 * in step by `check`; shown as a page of the HTML report.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { combineReports, diffConsecutive, diffVersions } from '../../generator/diff/diff-history.ts';
import { formatHtml } from '../../generator/report/format-html.ts';
import { buildUpgradeGuide } from '../../generator/report/upgrade-guide.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { tempDir } from '../helpers/temp-api.ts';
import { LEDGER_API } from './ledger.ts';

const tmp = tempDir('versions-upgrade');
afterAll(tmp.cleanup);

describe('buildUpgradeGuide', () => {
  it('covers only pairs of released versions', async () => {
    const ir = await loadIr(LEDGER_API);
    const guide = buildUpgradeGuide(combineReports(diffConsecutive(ir)));
    expect(guide.map((s) => [s.from.name, s.to.name])).toEqual([['2025-01-15', '2025-09-01']]);
    expect(guide[0]!.from).toMatchObject({ deprecated: '2026-01-01', sunset: '2027-06-01', docs: 'https://docs.example.com/upgrade/2025-01-15' });
  });

  it('groups the findings by client method and event, each with what to do and the names before and after', async () => {
    const ir = await loadIr(LEDGER_API);
    const [section] = buildUpgradeGuide(diffVersions(ir, '2025-01-15', '2025-09-01'));
    const target = (name: string) => section!.targets.find((t) => t.name === name)!;
    expect(section!.targets.map((t) => `${t.kind} ${t.name}`)).toEqual([
      'method accounts.list',
      'method accounts.get',
      'method accounts.create',
      'method accounts.replace',
      'method accounts.update',
      'method transactions.list',
      'method transactions.get',
      'method transactions.create',
      'event account.created',
    ]);
    expect(target('accounts.create').routes).toEqual(['POST /accounts']);
    expect(target('accounts.create').steps).toEqual([
      {
        level: 'breaking',
        id: 'field-renamed',
        location: 'accounts.name',
        message: 'accounts.holder was renamed to name',
        todo: 'Send and read it under its new name.',
        changes: ['name: holder → name'],
      },
    ]);
    // overdraftLimit, added with a default: a create that leaves it out gets it; a replace that leaves it out resets it.
    expect(target('accounts.replace').steps).toContainEqual(
      expect.objectContaining({
        id: 'request-field-with-default-added',
        location: 'accounts.overdraftLimit',
        changes: ['field: — → int, required, default 0'],
      }),
    );
    // A read answers the new field: nothing to do for it there (the field is only a request-side break).
    expect(target('accounts.get').steps.map((s) => s.id)).toEqual(['field-renamed']);
    expect(target('transactions.create').steps.map((s) => s.changes)).toEqual([['name: amount → amountMinor'], ['name: memo → description']]);
    // The account.created payload is the account: its rename reaches webhook subscribers too.
    expect(target('account.created').steps.map((s) => [s.id, s.changes])).toEqual([['field-renamed', ['name: holder → name']]]);
  });

  it('shows every finding of the comparison, and nothing else', async () => {
    const ir = await loadIr(new URL('../../examples/shop/api.ts', import.meta.url).pathname);
    const report = diffVersions(ir, 'v1', 'v2');
    const [section] = buildUpgradeGuide(report);
    const shown = new Set(section!.targets.flatMap((t) => t.steps.map((s) => `${s.id} ${s.location}`)));
    expect([...shown].sort()).toEqual([...new Set(report.findings.map((f) => `${f.id} ${f.location}`))].sort());
    expect(section!.summary).toEqual(report.summary);
  });

  it('has nothing for a comparison through history (--base) or with an unreleased version', async () => {
    const ir = await loadIr(LEDGER_API);
    expect(buildUpgradeGuide(diffVersions(ir, '2025-09-01', '2026-03-01'))).toEqual([]);
    const history = { ...diffVersions(ir, '2025-01-15', '2025-09-01'), comparisons: [{ from: 'origin/main', to: 'working tree', version: '2025-09-01' }] };
    expect(buildUpgradeGuide(history)).toEqual([]);
  });
});

describe('UPGRADING.md and the HTML report', () => {
  it('is generated beside CHANGES.md, and check reports it when it is edited or stale', async () => {
    const dir = path.join(tmp.dir, 'ledger');
    const written = await generate({ apiPath: LEDGER_API, outDir: dir });
    expect(written.ok).toBe(true);
    const file = path.join(dir, 'UPGRADING.md');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('## From 2025-01-15 to 2025-09-01');
    expect(text).toContain('`2025-01-15` is deprecated since 2026-01-01; it sunsets on 2027-06-01');
    expect(text).toContain('<https://docs.example.com/upgrade/2025-01-15>');
    expect(text).toContain('send `Ledger-Version: 2025-09-01`');
    expect(text).toContain('### Event `account.created`');
    expect(text).toContain('(name: holder → name) (`field-renamed`)');
    expect(text).not.toContain('2026-03-01');
    expect((await generate({ apiPath: LEDGER_API, outDir: dir, mode: 'check' })).stale).toEqual([]);
    writeFileSync(file, text.replace('holder', 'owner'));
    expect((await generate({ apiPath: LEDGER_API, outDir: dir, mode: 'check' })).stale).toEqual(['UPGRADING.md']);
  });

  it('is a page of the HTML report, escaped, with the docs link', async () => {
    const ir = await loadIr(LEDGER_API);
    const html = formatHtml({ ...combineReports(diffConsecutive(ir)), api: 'Ledger API' });
    expect(html).toContain('<section id="upgrade">');
    expect(html).toContain('2025-01-15 → 2025-09-01');
    expect(html).toContain('<a href="https://docs.example.com/upgrade/2025-01-15" rel="noreferrer">');
    expect(html).toContain('<code>Event account.created</code>');
    expect(html).toContain('name: holder → name');
    const base = formatHtml({ ...diffVersions(ir, '2025-09-01', '2026-03-01'), api: 'Ledger API' });
    expect(base).not.toContain('<section id="upgrade">');
  });
});
