/**
 * @module Checks a `restgen.config.ts` default export against {@link RestgenConfig}: unknown options
 * (RG212), values of the wrong kind (RG211), unknown parts (RG213) and unknown finding ids in the diff
 * settings (RG216), each at the property that holds it. What passes comes back typed.
 */
import type { FindingLevel, Part, RestgenConfig } from '../dsl/define-config.ts';
import { SEVERITIES, unknownSeverityIds } from '../diff/gate.ts';
import { allFindingIds } from '../diff/rules.ts';
import { isPart, PART_NAMES } from '../emit/parts.ts';
import { atPath, type DiagnosticBag } from '../model/diagnostics.ts';
import type { SourceRef } from '../model/ir.ts';
import { checkShape, closest, later, list, object, record, str } from '../model/option-shapes.ts';

const CONFIG = object({
  api: str,
  out: str,
  templates: str,
  generate: list(later),
  diff: object({ severity: record(later), failOn: later }),
});

const FAIL_ON = ['breaking', 'warning', 'none'] as const;

interface Shaped {
  readonly api?: string;
  readonly out?: string;
  readonly templates?: string;
  readonly generate?: readonly unknown[];
  readonly diff?: { readonly severity?: Readonly<Record<string, unknown>>; readonly failOn?: unknown };
}

const quote = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

function partsOf(written: readonly unknown[], where: string, ref: SourceRef, d: DiagnosticBag): Part[] | undefined {
  const at = atPath(ref, ['generate']);
  if (written.length === 0) {
    d.error('RG211', `${where}: generate lists no part; leave it out to generate every part, or name some of ${quote(PART_NAMES)}.`, at);
    return undefined;
  }
  const parts: Part[] = [];
  for (const p of written) {
    if (isPart(p)) parts.push(p);
    else {
      const guess = typeof p === 'string' ? closest(p, PART_NAMES) : undefined;
      d.error(
        'RG213',
        `${where}: generate names ${JSON.stringify(p)}, which is not a part${guess ? ` (did you mean '${guess}'?)` : ''}; the parts are ${quote(PART_NAMES)}.`,
        at,
      );
    }
  }
  return parts.length === written.length ? parts : undefined;
}

function diffOf(written: NonNullable<Shaped['diff']>, where: string, ref: SourceRef, d: DiagnosticBag): RestgenConfig['diff'] {
  const ids = allFindingIds().map((f) => f.id);
  const severity: Record<string, FindingLevel | 'off'> = {};
  for (const [id, level] of Object.entries(written.severity ?? {})) {
    const at = atPath(ref, ['diff', 'severity', id]);
    if (unknownSeverityIds({ [id]: 'off' }).length > 0) {
      const guess = closest(id, ids);
      d.error(
        'RG216',
        `${where}: diff.severity names '${id}', which is not a finding id${guess ? ` (did you mean '${guess}'?)` : ''}; restgen diff --format json lists the ids it reports.`,
        at,
      );
    } else if (!(SEVERITIES as readonly unknown[]).includes(level))
      d.error('RG211', `${where}: diff.severity['${id}'] must be one of ${quote(SEVERITIES)} (got ${JSON.stringify(level)}).`, at);
    else severity[id] = level as FindingLevel | 'off';
  }
  const failOn = written.failOn;
  if (failOn !== undefined && !(FAIL_ON as readonly unknown[]).includes(failOn))
    d.error('RG211', `${where}: diff.failOn must be one of ${quote(FAIL_ON)} (got ${JSON.stringify(failOn)}).`, atPath(ref, ['diff', 'failOn']));
  return {
    ...(written.severity ? { severity } : {}),
    ...(failOn !== undefined && (FAIL_ON as readonly unknown[]).includes(failOn) ? { failOn: failOn as (typeof FAIL_ON)[number] } : {}),
  };
}

/** Checks a config file's default export; `where` names the file in messages, `ref` is its `defineConfig` call. */
export function checkConfig(value: unknown, where: string, ref: SourceRef, d: DiagnosticBag): RestgenConfig {
  const shaped = (checkShape(value, CONFIG, where, ref, d, [], { wrongKind: 'RG211', unknownKey: 'RG212' }) ?? {}) as Shaped;
  // An empty path would name the config file's own folder (for `out`: generate into the project root).
  for (const [key, what] of [
    ['api', 'the API module (default: api.ts)'],
    ['out', 'the output folder (default: generated/ beside the module)'],
    ['templates', 'the folder of template overrides'],
  ] as const)
    if (typeof shaped[key] === 'string' && shaped[key].trim() === '')
      d.error('RG211', `${where}: ${key} is empty; name ${what}, relative to the config file, or remove the option.`, atPath(ref, [key]));
  const generate = shaped.generate ? partsOf(shaped.generate, where, ref, d) : undefined;
  const diff = shaped.diff ? diffOf(shaped.diff, where, ref, d) : undefined;
  return {
    ...(shaped.api !== undefined ? { api: shaped.api } : {}),
    ...(shaped.out !== undefined ? { out: shaped.out } : {}),
    ...(shaped.templates !== undefined ? { templates: shaped.templates } : {}),
    ...(generate ? { generate } : {}),
    ...(diff ? { diff } : {}),
  };
}
