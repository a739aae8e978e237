/**
 * Everything a brief says, gathered from the index (via TranscriptReader) and the user's
 * checkpoints/pins — never by re-reading a transcript. Pure data: every output format renders it.
 * Decisions, rejected alternatives, blockers and next steps come from the checkpoint when it has
 * them, and from the conversation itself (the user's statements, the agents' todo lists, plans and
 * compaction summaries), each with the message it came from.
 */
import type { Checkpoint, GitDrift, StalenessBand } from '../../../shared/api-types.js';
import type { LimitKind } from '../../../shared/limits.js';
import type { Message, Session } from '../../../shared/model.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import type { Pin } from '../userdata/user-data.js';
import { isCompactionSummary } from './agent-records.js';
import { extractFacts, type Fact, type FactSource } from './conversation-facts.js';
import { factWeight } from './fact-weight.js';
import { unwrapPrompt } from './statements.js';
import { readExcerpt, type Excerpt } from './excerpt.js';
import { collectFilesTouched, displayPath, type FileTouch } from './files-touched.js';
import { stalenessBand } from './staleness.js';
import { collectVerification, laterPass, type VerificationRun } from './verification.js';
import { goalWithoutNestedBrief } from '../index/baton-echo.js';

export interface BriefItem {
  text: string;
  source: 'checkpoint' | 'pin' | FactSource;
  /** The message it came from (pins, conversation facts); null for checkpoint items. */
  seq: number | null;
  /** Earlier messages whose statement this one corrects. */
  corrects: number[];
  /** How many checkpoints (or pins) state it: restated items are kept first when a budget cuts. */
  mentions?: number;
  /** When it was last stated, in order (higher: newer); a budget keeps the newest. */
  recency?: number;
  /** How much it says (see factWeight); a budget keeps the weightier first, then the newest. */
  weight?: number;
}

/** Sections whose items a budget can cut, with how many it left out. */
export type OmittedCounts = Partial<Record<'decisions' | 'rejected' | 'blockers' | 'itemsAdded' | 'nextSteps' | 'itemsCompleted' | 'files' | 'verification', number>>;

/** Kept for callers that name decisions specifically. */
export type BriefDecision = BriefItem;

export interface BriefData {
  session: Session;
  now: string;
  checkpoint: Checkpoint | null;
  staleness: StalenessBand | null;
  goal: string | null;
  state: {
    source: 'checkpoint' | 'last_assistant_message' | 'none';
    summary: string | null;
    /** Message the summary came from (no checkpoint). */
    summarySeq: number | null;
    /** The user's latest request, when there is no checkpoint: what the work was about last. */
    lastRequest: { seq: number; text: string } | null;
    /** Files changed after the latest passing check (or the latest changes when nothing was checked). */
    pendingFiles: string[];
    pendingSince: 'passing_check' | 'start';
    nextSteps: BriefItem[];
    itemsCompleted: BriefItem[];
    /** The session's last request was refused by a limit and nothing ran after it (null: it did not stop so). */
    limitStop: { at: string | null; resetsAt: string | null; kind: LimitKind; note: string | null } | null;
  };
  /** The agent's own summary of the conversation it compacted (latest on the current branch), if any. */
  compactionSummary: string | null;
  /** Decisions and constraints in force (corrected ones replaced), oldest first. */
  decisions: BriefItem[];
  /** Alternatives the user ruled out. */
  rejected: BriefItem[];
  open: { blockers: BriefItem[]; itemsAdded: BriefItem[] };
  /** Most recently touched first, at most MAX_FILES. */
  files: FileTouch[];
  /** Files touched in all (may exceed `files.length`). */
  filesTotal: number;
  /** Files the agent declared at the checkpoint that no tool call shows (relative paths). */
  declaredFiles: string[];
  verification: VerificationRun[];
  git: { atCheckpoint: Checkpoint['git']; drift: GitDrift | null };
  /** Project instruction files present (CLAUDE.md, AGENTS.md, …; see instruction-files.ts), relative to the project. */
  instructionFiles: string[];
  excerpt: Excerpt;
  /** All tool calls, ascending seq: for folding tool traffic in the excerpt. */
  toolCalls: Message[];
  /** Items left out to fit a budget, by section (empty until the brief is fitted). */
  omitted: OmittedCounts;
}

export interface CollectInput {
  reader: TranscriptReader;
  session: Session;
  /** Newest first, as the store lists them. */
  checkpoints: Checkpoint[];
  pins: Pin[];
  drift: GitDrift | null;
  now: Date;
  /** Instruction files found in the project (none for a session on another machine). */
  instructionFiles?: string[];
}

const RECENT_RESULTS = 400;
const MAX_FILES = 200;
const PENDING_FILES = 8;
/** Short assistant replies that only acknowledge ("Okay, noted."): never where the work stands. */
const ACK = /^\s*(?:ok(?:ay)?|sure|noted|got it|understood|will do|thanks|thank you|great|alright|right|yes|done)\b[^\n]{0,80}$/i;

/** `text (#seq)` for formats without their own place for the source message. */
export function itemLine(item: BriefItem): string {
  return item.seq === null ? item.text : `${item.text} (#${item.seq})`;
}

const checkpointItem = (text: string): BriefItem => ({ text: text.trim(), source: 'checkpoint', seq: null, corrects: [] });
const factItem = (f: Fact): BriefItem => ({ text: f.text, source: f.source, seq: f.seq, corrects: f.corrects });
/** Items that say the same thing up to case and punctuation share this key. */
const textKey = (text: string) => text.toLowerCase().replace(/\W+/g, ' ').trim();

export function collectBriefData({ reader, session, checkpoints, pins, drift, now, instructionFiles = [] }: CollectInput): BriefData {
  const id = session.id;
  const checkpoint = checkpoints[0] ?? null;
  // Briefs follow the current conversation: branches the user left (pi's /tree) are skipped.
  const toolCalls = reader.getMessages(id, { kinds: ['tool_call'], order: 'asc', currentBranch: true });
  const recentResults = reader.getMessages(id, { kinds: ['tool_result'], order: 'desc', limit: RECENT_RESULTS, currentBranch: true });
  // The user's words are short and carry most of what was decided: read all of them. System texts
  // (compaction summaries) come in the same pass over the session: each pass walks all its rows.
  const texts = reader.getMessages(id, { kinds: ['text'], roles: ['user', 'system'], order: 'asc', currentBranch: true });
  const userTexts = texts.filter((m) => m.role === 'user');
  const systemTexts = texts.filter((m) => m.role === 'system');
  const facts = extractFacts({ userTexts, systemTexts, toolCalls });

  // What the checkpoint says about open work wins; the conversation adds what came after it.
  const cpAt = checkpoint ? Date.parse(checkpoint.createdAt) : null;
  const times = cpAt === null ? null : timesBySeq(userTexts, systemTexts, toolCalls);
  const after = (f: Fact) => cpAt === null || Number.isNaN(cpAt) || (times?.get(f.seq) ?? Number.NEGATIVE_INFINITY) > cpAt;
  const merge = (fromCheckpoint: string[], fromConversation: Fact[], onlyAfter: boolean): BriefItem[] => {
    const items = fromCheckpoint.map(checkpointItem);
    // A set, not a scan per item: a checkpoint may carry thousands of items.
    const seen = new Set(items.map((i) => textKey(i.text)));
    for (const f of fromConversation) {
      if (onlyAfter && fromCheckpoint.length && !after(f)) continue;
      const key = textKey(f.text);
      if (!seen.has(key)) {
        seen.add(key);
        items.push(factItem(f));
      }
    }
    return items;
  };

  const files = collectFilesTouched(toolCalls, session.cwd, recentResults);
  const verification = collectVerification(toolCalls, recentResults);

  let state: BriefData['state'];
  const nextSteps = merge(checkpoint?.nextSteps ?? [], facts.nextSteps, true);
  const itemsCompleted = merge(checkpoint?.itemsCompleted ?? [], facts.done, true);
  const pending = pendingFiles(files, verification);
  const stop = reader.limitStop?.(id) ?? null;
  const limitStop = stop ? { at: stop.at, resetsAt: stop.resetsAt, kind: stop.kind ?? 'usage_limit', note: stop.note } : null;
  if (checkpoint) {
    state = { source: 'checkpoint', summary: checkpoint.summary, summarySeq: null, lastRequest: null, ...pending, nextSteps, itemsCompleted, limitStop };
  } else {
    // An API error the agent recorded as its reply (Claude's "API Error: Request rejected (429)…") is never the conclusion.
    const recent = reader
      .getMessages(id, { kinds: ['text'], roles: ['assistant'], order: 'desc', limit: 20, currentBranch: true })
      .filter((m) => m.text.trim().length > 0 && !m.isError);
    const conclusion = recent.find((m) => !ACK.test(m.text)) ?? recent[0];
    const lastUser = [...userTexts].reverse().find((m) => m.text.trim() && !isCompactionSummary(m.text));
    state = {
      source: conclusion ? 'last_assistant_message' : 'none',
      summary: conclusion ? conclusion.text.trim() : null,
      summarySeq: conclusion?.seq ?? null,
      lastRequest: lastUser && lastUser.seq !== userTexts[0]?.seq ? { seq: lastUser.seq, text: unwrapPrompt(lastUser.text).trim() } : null,
      ...pending,
      nextSteps,
      itemsCompleted,
      limitStop,
    };
  }

  const decisions: BriefItem[] = [];
  const byKey = new Map<string, BriefItem>();
  let recency = 0;
  for (const cp of [...checkpoints].reverse()) {
    for (const text of cp.decisions) {
      const key = textKey(text);
      const known = byKey.get(key);
      // Restated by a later checkpoint: cited once more, and as new as its latest statement.
      if (known) Object.assign(known, { mentions: (known.mentions ?? 1) + 1, recency: ++recency });
      else {
        const item = { ...checkpointItem(text), mentions: 1, recency: ++recency };
        byKey.set(key, item);
        decisions.push(item);
      }
    }
  }
  for (const pin of [...pins].sort((a, b) => a.seq - b.seq)) {
    const item: BriefItem = { text: pin.text.trim(), source: 'pin', seq: pin.seq, corrects: [], recency: ++recency };
    byKey.set(textKey(item.text), item);
    decisions.push(item);
  }
  const pinned = new Set(pins.map((p) => p.seq));
  for (const f of facts.decisions) {
    const key = textKey(f.text);
    if (pinned.has(f.seq) || byKey.has(key)) continue;
    const item = { ...factItem(f), recency: ++recency, weight: factWeight(f) };
    byKey.set(key, item);
    decisions.push(item);
  }

  const known = new Set(files.map((f) => f.path));
  const declaredFiles = (checkpoint?.filesChanged ?? [])
    .map((f) => displayPath(f, session.cwd))
    .filter((f) => !known.has(f.replace(/\s+\(.*\)$/, '')));

  const cited = new Set<number>();
  for (const f of [...facts.decisions, ...facts.rejected, ...facts.blockers, ...facts.nextSteps, ...facts.done]) cited.add(f.seq);
  for (const s of facts.superseded.keys()) cited.add(s);
  const excerpt = readExcerpt(reader, id, userTexts, cited);
  for (const m of excerpt.messages) {
    const s = facts.superseded.get(m.seq);
    if (s) m.note = s.how === 'corrected' ? `history: corrected at #${s.by}` : s.how === 'resolved' ? `history: resolved or done at #${s.by}` : null;
    // Results are the assistant's to report; a user's "tell me what fails" is a request, not a result.
    if (!m.note && m.role === 'assistant') {
      const pass = laterPass(m.text, m.seq, verification);
      if (pass) m.note = `history: \`${pass.command}\` passed later (#${pass.seq})`;
    }
  }

  // A session started from a pasted brief: its goal (and untitled heading) is the earlier brief's goal.
  const goal = session.firstPrompt === null ? null : goalWithoutNestedBrief(session.firstPrompt);
  return {
    session: goal === session.firstPrompt ? session : { ...session, firstPrompt: goal },
    compactionSummary: [...systemTexts].reverse().find((m) => isCompactionSummary(m.text))?.text ?? null,
    now: now.toISOString(),
    checkpoint,
    staleness: checkpoint ? stalenessBand(checkpoint.createdAt, now) : null,
    goal,
    state,
    decisions,
    rejected: facts.rejected.map(factItem),
    open: {
      blockers: merge(checkpoint?.blockers ?? [], facts.blockers, true),
      itemsAdded: (checkpoint?.itemsAdded ?? []).map(checkpointItem),
    },
    files: files.slice(0, MAX_FILES),
    filesTotal: files.length,
    declaredFiles,
    verification,
    git: { atCheckpoint: checkpoint?.git ?? null, drift },
    instructionFiles,
    excerpt,
    toolCalls,
    omitted: {},
  };
}

/** Files changed after the latest passing check: what the next agent must still verify. */
function pendingFiles(files: FileTouch[], verification: VerificationRun[]): Pick<BriefData['state'], 'pendingFiles' | 'pendingSince'> {
  let lastPass = -1;
  for (const v of verification) if (v.outcome === 'passed' && v.seq > lastPass) lastPass = v.seq;
  const since = lastPass >= 0 ? files.filter((f) => f.seq > lastPass) : files;
  return { pendingFiles: since.slice(0, PENDING_FILES).map((f) => f.path), pendingSince: lastPass >= 0 ? 'passing_check' : 'start' };
}

/** Message timestamps (ms) by seq, for telling what was said after a checkpoint. */
function timesBySeq(...lists: Message[][]): Map<number, number> {
  const out = new Map<number, number>();
  for (const list of lists) for (const m of list) if (m.timestamp) out.set(m.seq, Date.parse(m.timestamp));
  return out;
}
