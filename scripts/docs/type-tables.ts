/**
 * @module Renders interfaces read by `typescript-members.ts` as reference tables: one heading per type, its JSDoc,
 * and a row per member with its type and comment.
 */
import { code, prose, table } from './markdown.ts';
import type { MemberDoc, TypeDoc } from './typescript-members.ts';

/** A member's meaning: its JSDoc, and its example when it has one. */
export function meaning(m: MemberDoc): string {
  return [m.doc || '–', m.example ? `Example: ${code(m.example.replace(/\s+/g, ' '))}` : ''].filter(Boolean).join(' ');
}

/** A table of the members of `type` (option, type, meaning), with `required` marked. */
export function membersTable(type: TypeDoc): string {
  return table(
    ['member', 'type', 'meaning'],
    type.members.map((m) => [`${code(m.call ?? m.name)}${m.optional ? '' : ' (required)'}`, code(m.type), meaning(m)]),
  );
}

/** A section for `type`: a heading (with an anchor of its name in lower case), its JSDoc and its table. */
export function typeSection(type: TypeDoc, level = 3, title = `\`${type.name}\``): string {
  const out = [`${'#'.repeat(level)} ${title} {#${type.name.toLowerCase()}}`, ''];
  if (type.doc) out.push(prose(type.doc), '');
  if (type.extends.length) out.push(`Also has every member of ${type.extends.map((e) => code(e)).join(', ')}.`, '');
  // A fragment (it names types declared elsewhere), so inline code rather than a block the examples test compiles.
  if (type.alias !== undefined) out.push(`Its type: ${code(type.alias)}.`, '');
  else out.push(membersTable(type), '');
  return out.join('\n');
}
