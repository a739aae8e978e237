/**
 * The conversation excerpt: every substantive message of a session up to 200 of them; for a longer one the user's
 * messages (they are short and carry what was decided: the first, those the structured sections
 * cite and the latest 40) plus the assistant's messages of the first 10 and last 20 text messages. Only those messages are read from the index, never the whole
 * transcript. Tool traffic and omitted messages between two shown messages fold into one line.
 */
import type { Message, MessageRole } from '../../../shared/model.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import { withoutNestedBrief } from '../index/baton-echo.js';

/** Sessions up to this many substantive messages are read whole (cheap), so every turn can be weighed. */
export const EXCERPT_FULL_LIMIT = 200;
export const EXCERPT_HEAD = 10;
export const EXCERPT_TAIL = 20;
export const MESSAGE_CLIP_CHARS = 1200;
/** Recent user messages offered to the budget besides those the structured sections cite. */
export const EXCERPT_RECENT_USERS = 40;

export interface ExcerptMessage {
  seq: number;
  role: MessageRole;
  text: string;
  timestamp: string | null;
  /** Marks a message whose content was later superseded ("history: corrected at #40"). */
  note: string | null;
}

export interface Excerpt {
  /** Substantive messages (user/assistant text) in the session. */
  total: number;
  sampled: boolean;
  /** Candidate messages, ascending seq. */
  messages: ExcerptMessage[];
  /** Seqs of all the session's user messages, ascending: omitted ones are counted from it. */
  userSeqs: number[];
  /**
   * Seq ranges (inclusive) in which every text message was read, so a gap inside one is counted
   * exactly; outside them the assistant's replies were not read.
   */
  covered: [number, number][];
}

const SUBSTANTIVE = { kinds: ['text' as const], roles: ['user' as const, 'assistant' as const], currentBranch: true };
/**
 * Windows are paged over all text messages (one kind, so the index walks the session's id range in
 * order) and system texts are dropped afterwards: filtering by role in SQL makes SQLite sort every
 * matching row before it can apply the offset, which costs tens of ms on a 20k-message session.
 */
const TEXT_ONLY = { kinds: ['text' as const], currentBranch: true };

/**
 * @param userTexts the session's user text messages, ascending (already read for the brief)
 * @param cited seqs the structured sections cite: offered even when older than the recent ones
 */
export function readExcerpt(reader: TranscriptReader, sessionId: string, userTexts: Message[], cited: Set<number> = new Set()): Excerpt {
  const total = reader.countMessages(sessionId, SUBSTANTIVE);
  const userSeqs = userTexts.filter((m) => m.text.trim()).map((m) => m.seq);
  if (total === 0) return { total, sampled: false, messages: [], userSeqs, covered: [] };
  const bySeq = new Map<number, ExcerptMessage>();
  const add = (m: Message) => {
    // An assistant "message" that is an API error (a refused request) is no turn of the conversation: the state section says it.
    if (m.role === 'assistant' && m.isError) return;
    if ((m.role === 'user' || m.role === 'assistant') && m.text.trim() && !bySeq.has(m.seq)) {
      bySeq.set(m.seq, { seq: m.seq, role: m.role, text: withoutNestedBrief(m.text), timestamp: m.timestamp, note: null });
    }
  };
  const covered: [number, number][] = [];
  if (total <= EXCERPT_FULL_LIMIT) {
    reader.getMessages(sessionId, { ...TEXT_ONLY, order: 'asc' }).forEach(add);
    covered.push([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
  } else {
    const head = reader.getMessages(sessionId, { ...TEXT_ONLY, offset: 0, limit: EXCERPT_HEAD, order: 'asc' });
    // The tail read backwards: no count of all texts needed.
    const headEnd = head.length ? head[head.length - 1]!.seq : -1;
    const tail = reader.getMessages(sessionId, { ...TEXT_ONLY, limit: EXCERPT_TAIL, order: 'desc' }).filter((m) => m.seq > headEnd).reverse();
    head.forEach(add);
    tail.forEach(add);
    if (head.length) covered.push([Number.NEGATIVE_INFINITY, head[head.length - 1]!.seq]);
    if (tail.length) covered.push([tail[0]!.seq, Number.POSITIVE_INFINITY]);
    // A budget never shows thousands of turns: the first, the cited and the recent ones are offered.
    const recentFrom = userTexts.length - EXCERPT_RECENT_USERS;
    userTexts.forEach((m, i) => {
      if (i === 0 || i >= recentFrom || cited.has(m.seq)) add(m);
    });
  }
  const messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { total, sampled: messages.length < total, messages, userSeqs, covered };
}

/** How many user messages lie strictly between two seqs. */
export function usersBetween(excerpt: Excerpt, afterSeq: number, beforeSeq: number): number {
  return Math.max(0, lowerBound(excerpt.userSeqs, beforeSeq) - lowerBound(excerpt.userSeqs, afterSeq + 1));
}

/** Whether every text message strictly between two seqs was read. */
export function fullyRead(excerpt: Excerpt, afterSeq: number, beforeSeq: number): boolean {
  return excerpt.covered.some(([lo, hi]) => lo <= afterSeq + 1 && beforeSeq - 1 <= hi) || beforeSeq - afterSeq <= 1;
}

/** Clips a long message, marking how much was left out (never splits a surrogate pair). */
export function clipText(text: string, max = MESSAGE_CLIP_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  let cut = max;
  const code = trimmed.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${trimmed.slice(0, cut).trimEnd()} [… clipped ${trimmed.length - cut} chars]`;
}

/** Tool calls with seq strictly between two seqs (calls sorted by seq), by binary search. */
export function toolCallsBetween(calls: Message[], afterSeq: number, beforeSeq: number): Message[] {
  return calls.slice(lowerBound(calls, afterSeq + 1), lowerBound(calls, beforeSeq));
}

/** First index whose seq (or value) is ≥ `seq`, in an ascending list. */
function lowerBound(list: readonly (Message | number)[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const item = list[mid]!;
    if ((typeof item === 'number' ? item : item.seq) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** "[3 tool calls: Bash, Read, Edit]" — unique names in order of first use. */
export function foldToolCalls(calls: Message[]): string {
  const names: string[] = [];
  for (const c of calls) {
    const name = c.toolName ?? 'tool';
    if (!names.includes(name)) names.push(name);
  }
  return `[${calls.length} tool call${calls.length === 1 ? '' : 's'}: ${names.join(', ')}]`;
}
