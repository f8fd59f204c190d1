/**
 * @module A change's before or after value in words, for reports people read (the HTML report, the upgrade
 * guide): a field as `enum(EUR, USD), required, default "EUR"`, a list as its items, a name as itself.
 */
import { stableJson } from '../diff/collector.ts';

/** A change's before or after value in words: a field as `enum(EUR, USD), required, default "EUR"`. */
export function changeValue(v: unknown): string {
  if (v === undefined || v === null) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && !Array.isArray(v) && 'type' in v) {
    const f = v as { type: unknown; optional?: unknown; nullable?: unknown; default?: unknown; readOnly?: unknown; writeOnly?: unknown };
    const parts = [
      String(f.type),
      f.optional ? 'optional' : 'required',
      ...(f.nullable ? ['nullable'] : []),
      ...(f.readOnly ? ['read-only'] : []),
      ...(f.writeOnly ? ['write-only'] : []),
    ];
    return `${parts.join(', ')}${'default' in f ? `, default ${stableJson(f.default)}` : ''}`;
  }
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : stableJson(x))).join(', ') || '(none)' : stableJson(v);
}
