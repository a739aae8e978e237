/**
 * pi's transcript is a tree: every entry names its parent, `/tree` leaves whole branches behind in
 * the file, and the conversation pi resumes is the ancestry of the file's last entry. Messages are
 * delivered in file order (so `seq` never moves); this compact tree, kept in the unit's cursor,
 * recomputes after each read what follows the current path: prompts, first prompt, tools, and the
 * seq ranges of messages on the other branches.
 *
 * Per entry it keeps its id, its message count and the prompts on its path (a few bytes each);
 * parents are stored only where an entry does not hang under the one written before it (a branch),
 * tool names only for entries that called tools, prompt text only for a path's first prompt.
 */
import type { SeqRange } from '../../../../shared/model.js';

export interface PiTree {
  /** Entry ids in file order. */
  ids: string[];
  /** Entry index → parent index (-1: a root), for entries whose parent is not the entry before. */
  up: Record<string, number>;
  /** Messages delivered for each entry. */
  msgs: number[];
  /** Prompts on the path from the root down to and including each entry. */
  turns: number[];
  /** Entry index → tool names it called, in call order. */
  tools: Record<string, string[]>;
  /** Entry index → text, for prompts with no prompt above them (a path's first prompt). */
  firstPrompts: Record<string, string>;
}

export function emptyTree(): PiTree {
  return { ids: [], up: {}, msgs: [], turns: [], tools: {}, firstPrompts: {} };
}

/** What the current path says, recomputed from the tree. */
export interface PathView {
  userTurns: number;
  firstPrompt: string | null;
  toolNames: string[];
  otherBranchSeqs: SeqRange[];
}

/** id → index, rebuilt once per read (the cursor holds only the arrays). */
export class TreeIndex {
  private readonly byId = new Map<string, number>();

  constructor(readonly tree: PiTree) {
    tree.ids.forEach((id, i) => this.byId.set(id, i));
  }

  parentOf(i: number): number {
    const jump = this.tree.up[i];
    return jump === undefined ? i - 1 : jump;
  }

  /**
   * Adds an entry under `parentId` (null: a root; undefined: a v1 line without ids, which hangs under
   * the entry before). An id seen before (a torn line rewritten) gets a fresh slot, the last wins.
   */
  add(id: string, parentId: string | null | undefined): number {
    const t = this.tree;
    const i = t.ids.length;
    let parent: number;
    if (parentId === undefined) parent = i - 1;
    else if (parentId === null) parent = -1;
    // A parent lost to a damaged (skipped) line: pi appends under the leaf, so the entry written
    // before is the lost parent's own parent or closest kin; hanging there keeps the path whole.
    else parent = this.byId.get(parentId) ?? i - 1;
    t.ids.push(id);
    t.msgs.push(0);
    t.turns.push(parent >= 0 ? t.turns[parent]! : 0);
    if (parent !== i - 1) t.up[i] = parent;
    this.byId.set(id, i);
    return i;
  }

  notePrompt(i: number, text: string): void {
    const t = this.tree;
    if (t.turns[i] === 0) t.firstPrompts[i] = text;
    t.turns[i]!++;
  }

  noteTool(i: number, name: string): void {
    const list = (this.tree.tools[i] ??= []);
    list.push(name);
  }

  /** The current path (ancestry of the last entry) and what follows from it; `base` = seq of entry 0's first message. */
  view(base: number): PathView {
    const t = this.tree;
    const n = t.ids.length;
    const onPath = new Uint8Array(n);
    const path: number[] = [];
    for (let i = n - 1, guard = 0; i >= 0 && guard <= n; i = this.parentOf(i), guard++) {
      if (onPath[i]) break; // a cycle from a corrupted file: stop rather than loop
      onPath[i] = 1;
      path.push(i);
    }
    path.reverse();
    let firstPrompt: string | null = null;
    const toolNames: string[] = [];
    for (const i of path) {
      if (firstPrompt === null && t.firstPrompts[i] !== undefined) firstPrompt = t.firstPrompts[i]!;
      for (const name of t.tools[i] ?? []) if (!toolNames.includes(name)) toolNames.push(name);
    }
    const otherBranchSeqs: SeqRange[] = [];
    let seq = base;
    for (let i = 0; i < n; i++) {
      const count = t.msgs[i]!;
      if (count > 0 && !onPath[i]) {
        const last = otherBranchSeqs[otherBranchSeqs.length - 1];
        if (last && last[1] === seq - 1) last[1] = seq + count - 1;
        else otherBranchSeqs.push([seq, seq + count - 1]);
      }
      seq += count;
    }
    return { userTurns: n > 0 ? t.turns[n - 1]! : 0, firstPrompt, toolNames, otherBranchSeqs };
  }
}
