/**
 * @module prettier's document printer (`printDocToString` of `prettier/doc`), for the documents restgen's printer
 * builds and the options it prints with (80 columns, two spaces, no tabs), in the fewer steps those allow:
 * indentation is a number of spaces, every text is measured by its length, there are no line suffixes, cursors
 * or trims. The algorithm is prettier's, step for step (breaks propagated to enclosing groups first; a group
 * printed flat when it fits up to the next possible line break, else broken, trying a conditional group's states
 * in order; fills as prettier fills them), so the text is prettier's (test/format/doc-printer.test.ts holds the
 * two to the same text for arbitrary nodes). A text outside printable ASCII, whose width prettier measures
 * otherwise, makes it give up (undefined): the caller prints with prettier then.
 */
import type { builders } from 'prettier/doc';

type Doc = builders.Doc;

/** The document objects, with the members the printer reads (prettier's own types leave some out). */
type DocNode =
  | { readonly type: 'group'; readonly contents: Doc; break: boolean | 'propagated'; readonly id?: symbol; readonly expandedStates?: readonly Doc[] }
  | { readonly type: 'fill'; readonly parts: readonly Doc[] }
  | { readonly type: 'if-break'; readonly breakContents: Doc; readonly flatContents: Doc; readonly groupId?: symbol }
  | { readonly type: 'indent-if-break'; readonly contents: Doc; readonly groupId?: symbol; readonly negate?: boolean }
  | { readonly type: 'indent' | 'label' | 'line-suffix'; readonly contents: Doc }
  | { readonly type: 'align'; readonly contents: Doc; readonly n: unknown }
  | { readonly type: 'line'; readonly soft?: boolean; readonly hard?: boolean; readonly literal?: boolean }
  | { readonly type: 'break-parent' | 'line-suffix-boundary' | 'trim' | 'cursor' };
type Group = Extract<DocNode, { type: 'group' }>;

/** A document that is neither a text nor an array, as the printer reads it. */
const nodeOf = (doc: Doc): DocNode => doc as unknown as DocNode;

const PRINT_WIDTH = 80;
const BREAK = 1;
const FLAT = 2;
type Mode = typeof BREAK | typeof FLAT;

/** A command of the printer: a document to print at an indentation, in a mode; `from`: a fill's first part left. */
interface Command {
  readonly ind: number;
  readonly mode: Mode;
  readonly doc: Doc;
  readonly from?: number;
}

/** A text outside printable ASCII (prettier counts such a text's width by its characters' widths). */
const NOT_ASCII = /[^\x20-\x7F]/;

/** Whether prettier measures `text` by its length (printable ASCII), as this printer and the flat shortcut do. */
export const measuredByLength = (text: string): boolean => !NOT_ASCII.test(text);

class GiveUp extends Error {}

const widthOf = (text: string): number => {
  if (NOT_ASCII.test(text)) throw new GiveUp();
  return text.length;
};

/** prettier's `propagateBreaks`: a hard break or a broken group breaks every enclosing group but conditional ones. */
function propagateBreaks(doc: Doc): void {
  const visited = new Set<Group>();
  const groups: Group[] = [];
  const breakParent = (): void => {
    const parent = groups[groups.length - 1];
    if (parent && !parent.expandedStates && !parent.break) parent.break = 'propagated';
  };
  const walk = (doc: Doc): void => {
    if (typeof doc === 'string') return;
    if (Array.isArray(doc)) {
      for (const part of doc) walk(part);
      return;
    }
    const d = nodeOf(doc);
    switch (d.type) {
      case 'group':
        groups.push(d);
        if (!visited.has(d)) {
          visited.add(d);
          if (d.expandedStates) for (const state of d.expandedStates) walk(state);
          else walk(d.contents);
        }
        groups.pop();
        if (d.break) breakParent();
        return;
      case 'break-parent':
        breakParent();
        return;
      case 'fill':
        for (const part of d.parts) walk(part);
        return;
      case 'if-break':
        walk(d.breakContents);
        walk(d.flatContents);
        return;
      case 'indent':
      case 'align':
      case 'indent-if-break':
      case 'label':
      case 'line-suffix':
        walk(d.contents);
        return;
      default:
        return;
    }
  };
  walk(doc);
}

/** prettier's `fits`: whether `next`, then the commands left, print flat in `width` columns up to a line break. */
function fits(next: Command, rest: readonly Command[], width: number, modes: Record<symbol, Mode>, mustBeFlat: boolean): boolean {
  let restAt = rest.length;
  let pendingSpace = false;
  const commands: { mode: Mode; doc: Doc; from?: number }[] = [next];
  while (width >= 0) {
    if (commands.length === 0) {
      if (restAt === 0) return true;
      commands.push(rest[--restAt]!);
      continue;
    }
    const { mode, doc: popped, from } = commands.pop()!;
    if (typeof popped === 'string') {
      if (popped) {
        if (pendingSpace) {
          width -= 1;
          pendingSpace = false;
        }
        width -= widthOf(popped);
      }
      continue;
    }
    if (Array.isArray(popped)) {
      for (let i = popped.length - 1; i >= 0; i--) commands.push({ mode, doc: popped[i]! });
      continue;
    }
    const doc = nodeOf(popped);
    switch (doc.type) {
      case 'fill':
        for (let i = doc.parts.length - 1; i >= (from ?? 0); i--) commands.push({ mode, doc: doc.parts[i]! });
        break;
      case 'indent':
      case 'align':
      case 'indent-if-break':
      case 'label':
        commands.push({ mode, doc: doc.contents });
        break;
      case 'group': {
        if (mustBeFlat && doc.break) return false;
        const groupMode = doc.break ? BREAK : mode;
        commands.push({ mode: groupMode, doc: doc.expandedStates && groupMode === BREAK ? doc.expandedStates[doc.expandedStates.length - 1]! : doc.contents });
        break;
      }
      case 'if-break': {
        const groupMode = doc.groupId ? (modes[doc.groupId] ?? FLAT) : mode;
        const contents = groupMode === BREAK ? doc.breakContents : doc.flatContents;
        if (contents) commands.push({ mode, doc: contents });
        break;
      }
      case 'line':
        if (mode === BREAK || doc.hard) return true;
        if (!doc.soft) pendingSpace = true;
        break;
      case 'line-suffix':
      case 'trim':
      case 'cursor':
        throw new GiveUp();
      default:
        break;
    }
  }
  return false;
}

/** The printed text, trailing spaces trimmed before each line break as prettier trims them. */
class Output {
  private readonly settled: string[] = [];
  private unsettled = '';
  write(text: string): void {
    this.unsettled += text;
  }
  trim(): void {
    let end = this.unsettled.length;
    while (end > 0 && (this.unsettled.charCodeAt(end - 1) === 32 || this.unsettled.charCodeAt(end - 1) === 9)) end--;
    this.settled.push(end === this.unsettled.length ? this.unsettled : this.unsettled.slice(0, end));
    this.unsettled = '';
  }
  finish(): string {
    this.settled.push(this.unsettled);
    return this.settled.join('');
  }
}

/** `doc` printed as prettier prints it in 80 columns, or undefined when it holds a text outside printable ASCII. */
export function printDoc(doc: Doc): string | undefined {
  try {
    return print(doc);
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

function print(doc: Doc): string {
  propagateBreaks(doc);
  const modes: Record<symbol, Mode> = Object.create(null) as Record<symbol, Mode>;
  const out = new Output();
  const commands: Command[] = [{ ind: 0, mode: BREAK, doc }];
  let position = 0;
  let remeasure = false;
  while (commands.length > 0) {
    const { ind, mode, doc, from } = commands.pop()!;
    if (typeof doc === 'string') {
      if (doc) {
        out.write(doc);
        if (commands.length > 0) position += widthOf(doc);
      }
      continue;
    }
    if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) commands.push({ ind, mode, doc: doc[i]! });
      continue;
    }
    const d = nodeOf(doc);
    switch (d.type) {
      case 'indent':
        commands.push({ ind: ind + 2, mode, doc: d.contents });
        break;
      case 'align': {
        const n = d.n;
        if (typeof n !== 'number' || n < 0) throw new GiveUp();
        commands.push({ ind: ind + n, mode, doc: d.contents });
        break;
      }
      case 'group': {
        let command: Command;
        if (mode === FLAT && !remeasure) command = { ind, mode: d.break ? BREAK : FLAT, doc: d.contents };
        else {
          remeasure = false;
          const remaining = PRINT_WIDTH - position;
          const flat: Command = { ind, mode: FLAT, doc: d.contents };
          if (!d.break && fits(flat, commands, remaining, modes, false)) command = flat;
          else if (!d.expandedStates) command = { ind, mode: BREAK, doc: d.contents };
          else {
            const states = d.expandedStates;
            let chosen: Command | undefined;
            if (!d.break)
              for (let i = 1; i < states.length - 1 && !chosen; i++) {
                const state: Command = { ind, mode: FLAT, doc: states[i]! };
                if (fits(state, commands, remaining, modes, false)) chosen = state;
              }
            command = chosen ?? { ind, mode: BREAK, doc: states[states.length - 1]! };
          }
        }
        commands.push(command);
        if (d.id) modes[d.id] = command.mode;
        break;
      }
      case 'fill': {
        const remaining = PRINT_WIDTH - position;
        const offset = from ?? 0;
        const { parts } = d;
        const length = parts.length - offset;
        if (length === 0) break;
        const content = parts[offset]!;
        const contentFlat: Command = { ind, mode: FLAT, doc: content };
        const contentBreak: Command = { ind, mode: BREAK, doc: content };
        const contentFits = fits(contentFlat, [], remaining, modes, true);
        if (length === 1) {
          commands.push(contentFits ? contentFlat : contentBreak);
          break;
        }
        const whitespace = parts[offset + 1]!;
        const whitespaceFlat: Command = { ind, mode: FLAT, doc: whitespace };
        const whitespaceBreak: Command = { ind, mode: BREAK, doc: whitespace };
        if (length === 2) {
          if (contentFits) commands.push(whitespaceFlat, contentFlat);
          else commands.push(whitespaceBreak, contentBreak);
          break;
        }
        const bothFit = fits({ ind, mode: FLAT, doc: [content, whitespace, parts[offset + 2]!] }, [], remaining, modes, true);
        commands.push({ ind, mode, doc, from: offset + 2 });
        if (bothFit) commands.push(whitespaceFlat, contentFlat);
        else if (contentFits) commands.push(whitespaceBreak, contentFlat);
        else commands.push(whitespaceBreak, contentBreak);
        break;
      }
      case 'if-break': {
        const groupMode = d.groupId ? modes[d.groupId] : mode;
        const contents = groupMode === BREAK ? d.breakContents : groupMode === FLAT ? d.flatContents : undefined;
        if (contents) commands.push({ ind, mode, doc: contents });
        break;
      }
      case 'indent-if-break': {
        if (d.negate) throw new GiveUp();
        const groupMode = d.groupId ? modes[d.groupId] : mode;
        // Broken: the contents indented (prettier wraps them in an indent); flat: as they are.
        if (groupMode !== undefined && d.contents) commands.push({ ind: groupMode === BREAK ? ind + 2 : ind, mode, doc: d.contents });
        break;
      }
      case 'line':
        if (d.literal) throw new GiveUp();
        if (mode === FLAT && !d.hard) {
          if (!d.soft) {
            out.write(' ');
            position += 1;
          }
          break;
        }
        if (mode === FLAT) remeasure = true;
        out.trim();
        out.write(`\n${' '.repeat(ind)}`);
        position = ind;
        break;
      case 'label':
        commands.push({ ind, mode, doc: d.contents });
        break;
      case 'line-suffix-boundary':
      case 'break-parent':
        break;
      default:
        // Line suffixes, trims and cursors: restgen's printer builds none.
        throw new GiveUp();
    }
  }
  return out.finish();
}
