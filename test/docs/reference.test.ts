/**
 * The reference pages are the code's own tables: docs/reference/*.md is exactly what scripts/docs writes from the
 * code now (a stale page fails, naming the command that refreshes it), and each page lists every item of its table:
 * every diagnostic code with its fix, every finding id with its level, every command and option of the CLI, every
 * field builder and modifier of the DSL.
 */
import { cell } from '../../scripts/docs/markdown.ts';
import { describe, expect, it } from 'vitest';
import { allFindingIds } from '../../generator/diff/rules.ts';
import { f } from '../../generator/dsl/index.ts';
import { DIAGNOSTIC_FIXES } from '../../generator/model/diagnostic-fixes.ts';
import { DIAGNOSTIC_CODES } from '../../generator/model/diagnostics.ts';
import { renderReference, stalePages } from '../../scripts/docs/build-reference.ts';
import { cliEntries, loadProgram } from '../../scripts/docs/cli-page.ts';
import { read } from './pages.ts';

const page = (name: string): string => read(`docs/reference/${name}.md`);

/** The lines of `text` from the heading `heading` up to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading '${heading}'`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

describe('the reference pages', () => {
  it('are what the code says now (run npm run docs:reference when this fails)', async () => {
    expect(stalePages(await renderReference())).toEqual([]);
  }, 60_000);
});

describe('diagnostic codes', () => {
  it('have a fix each, and nothing else has one', () => {
    expect(Object.keys(DIAGNOSTIC_FIXES).sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
    for (const [code, fix] of Object.entries(DIAGNOSTIC_FIXES)) expect(fix.length, code).toBeGreaterThan(20);
  });

  it('are each documented once, with their meaning and fix', () => {
    const text = page('diagnostics');
    const headings = [...text.matchAll(/^### (RG\d{3}) .* \{#(rg\d{3})\}$/gm)];
    expect(headings.map((m) => m[1]).sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
    for (const m of headings) expect(m[2]).toBe(m[1]!.toLowerCase());
    for (const code of Object.keys(DIAGNOSTIC_CODES))
      expect(section(text, text.split('\n').find((l) => l.startsWith(`### ${code} `))!), code).toMatch(/\*\*Fix:\*\* \S/);
  });
});

describe('finding ids', () => {
  it('are each listed with their level and summary, in the order of the rules', () => {
    const rows = [...page('findings').matchAll(/^\| `([a-z0-9-]+)` \| (\w+) \| (.+) \|$/gm)].map((m) => ({
      id: m[1],
      level: m[2],
      summary: m[3]!.replace(/\\\|/g, '|'),
    }));
    expect(rows).toEqual(allFindingIds().map((i) => ({ ...i, summary: i.summary.replace(/</g, '&lt;').replace(/>/g, '&gt;') })));
  });
});

describe('the command line', () => {
  it('documents every command and every option of each, in its own section', async () => {
    const program = await loadProgram();
    const text = page('cli');
    expect(program.commands.map((c) => c.name()).sort()).toEqual(['check', 'conformance', 'diff', 'generate', 'init', 'serve']);
    for (const entry of cliEntries(program)) {
      const where = entry.command === 'restgen' ? '## Global options' : `## restgen ${entry.command}`;
      expect(section(text, where), `${entry.command} ${entry.flags}`).toContain(`| \`${entry.flags}\` | ${cell(entry.description)}`);
    }
  });
});

describe('the DSL', () => {
  it('documents every field builder and every modifier of every builder', () => {
    const text = page('dsl');
    for (const name of Object.keys(f)) expect(text, `f.${name}`).toMatch(new RegExp(`\\| \`f\\.${name}\\(`));
    const modifiers = new Set<string>();
    for (const builder of [f.string(), f.int(), f.enum(['a']), f.array(f.string()), f.object({})]) {
      for (let proto: object | null = Object.getPrototypeOf(builder); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
        for (const name of Object.getOwnPropertyNames(proto))
          if (name !== 'constructor' && typeof (builder as unknown as Record<string, unknown>)[name] === 'function') modifiers.add(name);
    }
    const documented = [...text.matchAll(/^\| `\.(\w+)\(/gm)].map((m) => m[1]);
    for (const m of modifiers) if (!['with', 'flag', 'marker', 'bound', 'lifespan'].includes(m)) expect(documented, m).toContain(m);
  });
});
