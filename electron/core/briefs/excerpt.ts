/**
 * The conversation excerpt: every substantive message of a short session; for a long one the
 * first 10, 20 from the middle and the last 20 (Handshake's sampling). Only those messages are
 * read from the index, never the whole transcript. Tool traffic between two shown messages is
 * folded into one line.
 */
import type { Message, MessageRole } from '../../../shared/model.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import { withoutNestedBrief } from '../index/baton-echo.js';

export const EXCERPT_FULL_LIMIT = 50;
export const EXCERPT_HEAD = 10;
export const EXCERPT_MIDDLE = 20;
export const EXCERPT_TAIL = 20;
export const MESSAGE_CLIP_CHARS = 1200;

export interface ExcerptMessage {
  /** Position among the session's text messages (0-based). */
  pos: number;
  seq: number;
  role: MessageRole;
  text: string;
  timestamp: string | null;
}

export interface Excerpt {
  /** Substantive messages (user/assistant text) in the session. */
  total: number;
  /** All text messages (positions `pos` count these; system texts are never shown). */
  texts: number;
  sampled: boolean;
  messages: ExcerptMessage[];
}

const SUBSTANTIVE = { kinds: ['text' as const], roles: ['user' as const, 'assistant' as const] };
/**
 * Windows are paged over all text messages (one kind, so the index walks the session's id range in
 * order) and system texts are dropped afterwards: filtering by role in SQL makes SQLite sort every
 * matching row before it can apply the offset, which costs tens of ms on a 20k-message session.
 */
const TEXT_ONLY = { kinds: ['text' as const] };

export function readExcerpt(reader: TranscriptReader, sessionId: string): Excerpt {
  const total = reader.countMessages(sessionId, SUBSTANTIVE);
  const texts = total === 0 ? 0 : reader.countMessages(sessionId, TEXT_ONLY);
  const windows: [number, number][] =
    total <= EXCERPT_FULL_LIMIT
      ? [[0, texts]]
      : [
          [0, EXCERPT_HEAD],
          [Math.max(EXCERPT_HEAD, Math.floor(texts / 2) - EXCERPT_MIDDLE / 2), EXCERPT_MIDDLE],
          [texts - EXCERPT_TAIL, EXCERPT_TAIL],
        ];
  const messages: ExcerptMessage[] = [];
  let lastPos = -1;
  for (const [offset, limit] of windows) {
    const start = Math.max(offset, lastPos + 1);
    const count = offset + limit - start;
    if (count <= 0) continue;
    const page = reader.getMessages(sessionId, { ...TEXT_ONLY, offset: start, limit: count, order: 'asc' });
    page.forEach((m, i) => {
      if (m.role !== 'user' && m.role !== 'assistant') return;
      if (!m.text.trim()) return;
      messages.push({ pos: start + i, seq: m.seq, role: m.role, text: withoutNestedBrief(m.text), timestamp: m.timestamp });
    });
    lastPos = start + count - 1;
  }
  return { total, texts, sampled: total > EXCERPT_FULL_LIMIT, messages };
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

function lowerBound(calls: Message[], seq: number): number {
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calls[mid]!.seq < seq) lo = mid + 1;
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
