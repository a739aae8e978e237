/**
 * Everything a brief says, gathered from the index (via TranscriptReader) and the user's
 * checkpoints/pins — never by re-reading a transcript. Pure data: every output format renders it.
 */
import type { Checkpoint, GitDrift, StalenessBand } from '../../../shared/api-types.js';
import type { Session } from '../../../shared/model.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import type { Pin } from '../userdata/user-data.js';
import { readExcerpt, type Excerpt } from './excerpt.js';
import { collectFilesTouched, displayPath, type FileTouch } from './files-touched.js';
import { stalenessBand } from './staleness.js';
import { collectVerification, type VerificationRun } from './verification.js';
import type { Message } from '../../../shared/model.js';
import { goalWithoutNestedBrief } from '../index/baton-echo.js';

export interface BriefDecision {
  text: string;
  source: 'checkpoint' | 'pin';
  /** Message seq for pinned turns. */
  seq: number | null;
}

export interface BriefData {
  session: Session;
  now: string;
  checkpoint: Checkpoint | null;
  staleness: StalenessBand | null;
  goal: string | null;
  state: {
    source: 'checkpoint' | 'last_assistant_message' | 'none';
    summary: string | null;
    nextSteps: string[];
    itemsCompleted: string[];
  };
  decisions: BriefDecision[];
  open: { blockers: string[]; itemsAdded: string[] };
  /** Most recently touched first, at most MAX_FILES. */
  files: FileTouch[];
  /** Files touched in all (may exceed `files.length`). */
  filesTotal: number;
  /** Files the agent declared at the checkpoint that no tool call shows (relative paths). */
  declaredFiles: string[];
  verification: VerificationRun[];
  git: { atCheckpoint: Checkpoint['git']; drift: GitDrift | null };
  excerpt: Excerpt;
  /** All tool calls, ascending seq: for folding tool traffic in the excerpt. */
  toolCalls: Message[];
}

export interface CollectInput {
  reader: TranscriptReader;
  session: Session;
  /** Newest first, as the store lists them. */
  checkpoints: Checkpoint[];
  pins: Pin[];
  drift: GitDrift | null;
  now: Date;
}

const RECENT_RESULTS = 400;
const MAX_FILES = 200;

export function collectBriefData({ reader, session, checkpoints, pins, drift, now }: CollectInput): BriefData {
  const id = session.id;
  const checkpoint = checkpoints[0] ?? null;
  const toolCalls = reader.getMessages(id, { kinds: ['tool_call'], order: 'asc' });
  const recentResults = reader.getMessages(id, { kinds: ['tool_result'], order: 'desc', limit: RECENT_RESULTS });

  let state: BriefData['state'];
  if (checkpoint) {
    state = { source: 'checkpoint', summary: checkpoint.summary, nextSteps: checkpoint.nextSteps, itemsCompleted: checkpoint.itemsCompleted };
  } else {
    const last = reader
      .getMessages(id, { kinds: ['text'], roles: ['assistant'], order: 'desc', limit: 10 })
      .find((m) => m.text.trim().length > 0);
    state = last
      ? { source: 'last_assistant_message', summary: last.text.trim(), nextSteps: [], itemsCompleted: [] }
      : { source: 'none', summary: null, nextSteps: [], itemsCompleted: [] };
  }

  const decisions: BriefDecision[] = [];
  const seen = new Set<string>();
  for (const cp of [...checkpoints].reverse()) {
    for (const text of cp.decisions) {
      const key = text.trim();
      if (!seen.has(key)) {
        seen.add(key);
        decisions.push({ text: key, source: 'checkpoint', seq: null });
      }
    }
  }
  for (const pin of [...pins].sort((a, b) => a.seq - b.seq)) {
    decisions.push({ text: pin.text.trim(), source: 'pin', seq: pin.seq });
  }

  const allFiles = collectFilesTouched(toolCalls, session.cwd);
  const files = allFiles.slice(0, MAX_FILES);
  const known = new Set(allFiles.map((f) => f.path));
  const declaredFiles = (checkpoint?.filesChanged ?? [])
    .map((f) => displayPath(f, session.cwd))
    .filter((f) => !known.has(f.replace(/\s+\(.*\)$/, '')));

  // A session started from a pasted brief: its goal (and untitled heading) is the earlier brief's goal.
  const goal = session.firstPrompt === null ? null : goalWithoutNestedBrief(session.firstPrompt);
  return {
    session: goal === session.firstPrompt ? session : { ...session, firstPrompt: goal },
    now: now.toISOString(),
    checkpoint,
    staleness: checkpoint ? stalenessBand(checkpoint.createdAt, now) : null,
    goal,
    state,
    decisions,
    open: { blockers: checkpoint?.blockers ?? [], itemsAdded: checkpoint?.itemsAdded ?? [] },
    files,
    filesTotal: allFiles.length,
    declaredFiles,
    verification: collectVerification(toolCalls, recentResults),
    git: { atCheckpoint: checkpoint?.git ?? null, drift },
    excerpt: readExcerpt(reader, id),
    toolCalls,
  };
}
