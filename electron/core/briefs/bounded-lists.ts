/**
 * Lists that leave Baton outside a brief (restore's checkpoint view, git snapshots of a work tree
 * with 100k untracked files) cut to a size a reader can use, saying how many were left out.
 */
import type { Checkpoint } from '../../../shared/api-types.js';
import { clipChars, fitList, moreLine } from './fit-items.js';

/** What a restore shows of each checkpoint list before the (budgeted) brief. */
export const VIEW_LIST_CHARS = 4000;
export const VIEW_ITEM_CHARS = 500;
export const VIEW_PATHS = 50;

/** The newest items of `items` within VIEW_LIST_CHARS, then "… N more decisions not shown". */
export function boundTextList(items: string[], noun: string, chars = VIEW_LIST_CHARS): string[] {
  const { kept, omitted } = fitList(items, { allowance: chars, itemMax: VIEW_ITEM_CHARS, text: (t) => t, withText: (_, t) => t });
  return omitted ? [...kept, moreLine(omitted, noun)] : kept;
}

/** The first VIEW_PATHS paths (each clipped) and the true count. */
export function boundPaths(paths: string[], kept = VIEW_PATHS): { shown: string[]; total: number } {
  return { shown: paths.slice(0, kept).map((p) => clipChars(p, VIEW_ITEM_CHARS)), total: paths.length };
}

/**
 * A checkpoint as a door shows it beside its brief (restore over the API and CLI, `baton handoff
 * --json`): every list cut to what a reader can use, saying how many were left out. The stored
 * checkpoint keeps everything; the brief carries the content within its budget.
 */
export function boundCheckpoint(cp: Checkpoint): Checkpoint {
  const git = cp.git && {
    ...cp.git,
    staged: boundTextList(cp.git.staged, 'files'),
    unstaged: boundTextList(cp.git.unstaged, 'files'),
    untracked: boundTextList(cp.git.untracked, 'files'),
  };
  return {
    ...cp,
    summary: clipChars(cp.summary, VIEW_LIST_CHARS),
    decisions: boundTextList(cp.decisions, 'decisions'),
    nextSteps: boundTextList(cp.nextSteps, 'next steps'),
    blockers: boundTextList(cp.blockers, 'blockers'),
    itemsCompleted: boundTextList(cp.itemsCompleted, 'completed items'),
    itemsAdded: boundTextList(cp.itemsAdded, 'added items'),
    filesChanged: boundTextList(cp.filesChanged, 'files'),
    git,
  };
}
