/**
 * Brief data cut to a character allowance, before anything is tokenized or redacted: every
 * section (goal, state, decisions, rejected, blockers, next steps, done, files, verification) gets
 * a fair share, small sections stay whole, and within a list the items that matter most are kept
 * (pinned and restated decisions, then the newest) with a count of those left out. A single huge
 * item is clipped, never allowed to take a section. Work here is linear in the data and cheap;
 * the token count that follows only sees what is left, so a brief costs O(budget).
 */
import type { Checkpoint, GitDrift } from '../../../shared/api-types.js';
import type { BriefData, BriefItem, OmittedCounts } from './brief-data.js';
import { clipChars, fitList, shareAllowance } from './fit-items.js';

/** Header strings never need more than this, whatever the budget. */
const HEADER_CAP = { title: 200, branch: 200, model: 120, cwd: 1000, path: 300 } as const;
/** Characters a list item costs besides its text (bullet, source reference). */
const ITEM_OVERHEAD = 24;
/** A list item may take at most this share of its section (and never more than this many chars). */
const ITEM_SHARE = 3;
const ITEM_CAP = 4000;
/** Excerpt messages are rendered clipped to 1,200 chars; more is never needed. */
const EXCERPT_MESSAGE_CAP = 2400;
/** Lists of the drift a brief or restore shows at most (the counts stay exact). */
export const DRIFT_COMMITS_KEPT = 50;
export const DRIFT_FILES_KEPT = 200;

type ListKey = 'decisions' | 'rejected' | 'blockers' | 'itemsAdded' | 'nextSteps' | 'itemsCompleted';

/** Shares of the allowance, relative to the other sections (1). */
const LIST_WEIGHT: Record<ListKey, number> = { decisions: 4, rejected: 4, blockers: 3, nextSteps: 3, itemsAdded: 2, itemsCompleted: 1 };

/** Decisions: pinned first, then those restated by more checkpoints, then the weightier (corrections, reasons), then the newest. */
function decisionPriority(item: BriefItem, index: number): number {
  return (item.source === 'pin' ? 1e12 : 0) + (item.mentions ?? 1) * 1e8 + (item.weight ?? 1) * 1e6 + (item.recency ?? index);
}

/** Next steps are an ordered plan: the first (immediate) steps are kept. */
const inOrder = (_: unknown, index: number) => -index;
const newest = (item: BriefItem, index: number) => item.recency ?? index;

const itemSize = (items: { text: string }[]) => items.reduce((n, i) => n + i.text.length + ITEM_OVERHEAD, 0);

export function boundBriefData(data: BriefData, allowance: number): BriefData {
  const lists: Record<ListKey, BriefItem[]> = {
    decisions: data.decisions,
    rejected: data.rejected,
    blockers: data.open.blockers,
    itemsAdded: data.open.itemsAdded,
    nextSteps: data.state.nextSteps,
    itemsCompleted: data.state.itemsCompleted,
  };
  const listKeys = Object.keys(lists) as ListKey[];
  const strings = {
    goal: data.goal ?? '',
    summary: data.state.summary ?? '',
    compaction: data.compactionSummary ?? '',
    lastRequest: data.state.lastRequest?.text ?? '',
  };
  const stringKeys = Object.keys(strings) as (keyof typeof strings)[];
  const fileTexts = [...data.files.map((f) => ({ text: f.path })), ...data.declaredFiles.map((text) => ({ text }))];
  const checkTexts = data.verification.map((v) => ({ text: v.command }));
  const sizes = [
    ...listKeys.map((k) => itemSize(lists[k])),
    ...stringKeys.map((k) => strings[k].length),
    itemSize(fileTexts),
    itemSize(checkTexts),
  ];
  // What was decided, ruled out, blocked and planned is what the next agent cannot find again in the
  // repository: those lists weigh more than the file list, checks, done items and quoted texts.
  const weights = [...listKeys.map((k) => LIST_WEIGHT[k]), ...stringKeys.map(() => 1), 1, 1];
  const shares = shareAllowance(sizes, allowance, weights);
  const share = (i: number) => shares[i]!;
  const omitted: OmittedCounts = { ...data.omitted };
  const count = (key: keyof OmittedCounts, n: number) => {
    if (n > 0) omitted[key] = (omitted[key] ?? 0) + n;
  };

  const cut: Partial<Record<ListKey, BriefItem[]>> = {};
  listKeys.forEach((key, i) => {
    const priority = key === 'decisions' ? decisionPriority : key === 'nextSteps' ? inOrder : newest;
    const { kept, omitted: left } = fitList(lists[key], {
      allowance: share(i),
      itemMax: itemMaxOf(share(i)),
      overhead: ITEM_OVERHEAD,
      text: (item) => item.text,
      withText: (item, text) => ({ ...item, text }),
      priority,
    });
    cut[key] = kept;
    count(key, left);
  });
  const clipped = Object.fromEntries(stringKeys.map((k, i) => [k, clipChars(strings[k], share(listKeys.length + i))])) as typeof strings;

  // Files: most recently touched first, then those declared at the checkpoint.
  const filesShare = share(listKeys.length + stringKeys.length);
  const pathMax = Math.min(HEADER_CAP.path, itemMaxOf(filesShare));
  const keptFiles = fitList(data.files, {
    allowance: filesShare,
    itemMax: pathMax,
    overhead: ITEM_OVERHEAD,
    text: (f) => f.path,
    withText: (f, path) => ({ ...f, path }),
    priority: inOrder,
  }).kept;
  const filesLeft = filesShare - itemSize(keptFiles.map((f) => ({ text: f.path })));
  const declared = fitList(data.declaredFiles, { allowance: Math.max(0, filesLeft), itemMax: pathMax, overhead: ITEM_OVERHEAD, text: (f) => f, withText: (_, t) => t, priority: inOrder });
  // data.files beyond filesTotal are already counted by filesTotal; only declared ones add here.
  count('files', declared.omitted);

  const checksShare = share(listKeys.length + stringKeys.length + 1);
  const checks = fitList(data.verification, {
    allowance: checksShare,
    itemMax: itemMaxOf(checksShare),
    overhead: ITEM_OVERHEAD,
    text: (v) => v.command,
    withText: (v, command) => ({ ...v, command }),
  });
  count('verification', checks.omitted);

  const s = data.session;
  return {
    ...data,
    session: {
      ...s,
      title: s.title === null ? null : clipChars(s.title, HEADER_CAP.title),
      firstPrompt: s.firstPrompt === null ? null : clipChars(s.firstPrompt, Math.max(HEADER_CAP.title, clipped.goal.length)),
      gitBranch: s.gitBranch === null ? null : clipChars(s.gitBranch, HEADER_CAP.branch),
      model: s.model === null ? null : clipChars(s.model, HEADER_CAP.model),
      cwd: s.cwd === null ? null : clipChars(s.cwd, HEADER_CAP.cwd),
    },
    checkpoint: data.checkpoint && withoutLists(data.checkpoint),
    goal: data.goal === null ? null : clipped.goal,
    state: {
      ...data.state,
      summary: data.state.summary === null ? null : clipped.summary,
      lastRequest: data.state.lastRequest && { ...data.state.lastRequest, text: clipped.lastRequest },
      pendingFiles: data.state.pendingFiles.map((f) => clipChars(f, HEADER_CAP.path)),
      nextSteps: cut.nextSteps!,
      itemsCompleted: cut.itemsCompleted!,
    },
    compactionSummary: data.compactionSummary === null ? null : clipped.compaction,
    decisions: cut.decisions!,
    rejected: cut.rejected!,
    open: { blockers: cut.blockers!, itemsAdded: cut.itemsAdded! },
    files: keptFiles,
    // Files dropped from data.files stay counted: filesTotal is what was touched in all.
    declaredFiles: declared.kept,
    verification: checks.kept,
    git: { atCheckpoint: data.git.atCheckpoint, drift: data.git.drift && boundDrift(data.git.drift) },
    excerpt: { ...data.excerpt, messages: data.excerpt.messages.map((m) => (m.text.length > EXCERPT_MESSAGE_CAP ? { ...m, text: clipChars(m.text, EXCERPT_MESSAGE_CAP) } : m)) },
    omitted,
  };
}

function itemMaxOf(share: number): number {
  return Math.min(ITEM_CAP, Math.max(200, Math.floor(share / ITEM_SHARE)));
}

/** The checkpoint a brief renders only by its id, time and token: its lists are in the sections. */
function withoutLists(cp: Checkpoint): Checkpoint {
  return { ...cp, summary: '', decisions: [], nextSteps: [], blockers: [], itemsCompleted: [], itemsAdded: [], filesChanged: [] };
}

/**
 * Drift as shown: at most DRIFT_COMMITS_KEPT commits and DRIFT_FILES_KEPT files (a repository with
 * 100k changed files still answers in kilobytes); the totals keep the true counts.
 */
export function boundDrift(drift: GitDrift): GitDrift {
  const commitsTotal = drift.commitsTotal ?? drift.commitsSince.length;
  const filesChangedTotal = drift.filesChangedTotal ?? drift.filesChangedSince.length;
  if (drift.commitsSince.length <= DRIFT_COMMITS_KEPT && drift.filesChangedSince.length <= DRIFT_FILES_KEPT && drift.commitsTotal !== undefined) return drift;
  return {
    ...drift,
    commitsSince: drift.commitsSince.slice(0, DRIFT_COMMITS_KEPT).map((c) => ({ hash: c.hash, subject: clipChars(c.subject, HEADER_CAP.title) })),
    commitsTotal,
    filesChangedSince: drift.filesChangedSince.slice(0, DRIFT_FILES_KEPT).map((f) => clipChars(f, HEADER_CAP.path)),
    filesChangedTotal,
  };
}
