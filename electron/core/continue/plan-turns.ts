/**
 * A session's messages as text-only turns a target can replay: user and assistant text verbatim,
 * tool calls and their results flattened to labelled text in the assistant's turn (a target cannot
 * replay another agent's tool vocabulary), reasoning dropped (signed or encrypted for the model that
 * wrote it), consecutive same-role texts merged so turns alternate. Only what follows the latest
 * compaction summary is a candidate for verbatim turns: the brief carries that summary instead.
 */
import type { Message } from '../../../shared/model.js';
import { isCompactionSummary } from '../briefs/agent-records.js';
import type { PlannedTurn } from './native-writer.js';

/** Tool output is kept short in a flattened turn: the brief and the files carry the detail. */
export const TOOL_TEXT_CHARS = 2000;

export interface TurnsFromMessages {
  turns: PlannedTurn[];
  /** Tool calls/results flattened, thinking blocks dropped (for the result's notes). */
  flattenedTools: number;
  droppedThinking: number;
  /** seq of the latest compaction summary, when the source agent compacted. */
  compactionSeq: number | null;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never cut inside a surrogate pair: the Anthropic API rejects a lone surrogate.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)} […]`;
}

function flattenTool(m: Message): string {
  const name = m.toolName ?? 'tool';
  if (m.kind === 'tool_call') return `[tool call] ${name}: ${clip(m.text.trim(), TOOL_TEXT_CHARS)}`;
  return `[tool result${m.isError ? ', error' : ''}] ${name}: ${clip(m.text.trim(), TOOL_TEXT_CHARS)}`;
}

export function turnsFromMessages(messages: Message[]): TurnsFromMessages {
  let compactionSeq: number | null = null;
  for (const m of messages) if ((m.role === 'system' || m.role === 'user') && m.kind === 'text' && isCompactionSummary(m.text)) compactionSeq = m.seq;
  const turns: PlannedTurn[] = [];
  let flattenedTools = 0;
  let droppedThinking = 0;
  const push = (role: PlannedTurn['role'], text: string, timestamp: string | null) => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.text = `${last.text}\n\n${text}`;
    else turns.push({ role, text, timestamp });
  };
  for (const m of messages) {
    if (compactionSeq !== null && m.seq <= compactionSeq) continue;
    if (m.kind === 'thinking') {
      droppedThinking += 1;
      continue;
    }
    if (m.role === 'system') continue;
    if (m.kind === 'tool_call' || m.kind === 'tool_result') {
      flattenedTools += 1;
      push('assistant', flattenTool(m), m.timestamp);
      continue;
    }
    const text = m.text.trim();
    if (!text) continue;
    push(m.role === 'user' ? 'user' : 'assistant', text, m.timestamp);
  }
  return { turns, flattenedTools, droppedThinking, compactionSeq };
}

/**
 * The newest turns that fit `budget` tokens, starting with a user turn. One turn longer than
 * `maxTurnTokens` is clipped (its head kept) so the latest exchange always fits.
 */
export function newestTurns(turns: PlannedTurn[], budget: number, count: (text: string) => number, cut: (text: string, max: number) => string, maxTurnTokens: number): PlannedTurn[] {
  const picked: PlannedTurn[] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    let text = turn.text;
    let tokens = count(text);
    if (tokens > maxTurnTokens) {
      text = `${cut(text, maxTurnTokens)} […]`;
      tokens = maxTurnTokens;
    }
    if (used + tokens > budget && picked.length > 0) break;
    picked.unshift({ ...turn, text });
    used += tokens;
  }
  while (picked.length > 0 && picked[0]!.role !== 'user') picked.shift();
  return picked;
}
