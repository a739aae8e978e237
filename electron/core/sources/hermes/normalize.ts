/**
 * Hermes `sessions` + `messages` rows → normalized Session + Messages.
 *
 * Row mapping (messages ordered by id): user → user text; assistant → thinking (reasoning column),
 * text (content), one tool_call per `tool_calls` entry (text = the call's JSON `arguments`, exactly as
 * stored); tool → tool_result; system rows are skipped. Content may carry the multimodal prefix
 * "\x00json:" (SQLite) or "\x01json:" (Postgres backend) followed by a JSON part list.
 */
import type { Message, Session } from '../../../../shared/model.js';

export interface HermesMessageRow {
  id: number;
  role: string;
  content: string | null;
  tool_call_id: string | null;
  tool_calls: string | null;
  tool_name: string | null;
  timestamp: number | null;
  reasoning: string | null;
  display_kind: string | null;
  /** `messages._compressed_summary` (Hermes ≥ 0.21): 1 on a compression summary carrier; null before. */
  compressed_summary: number | null;
}

export type HermesSessionRow = Record<string, unknown> & { id: string };

/** First Message index produced by each row, for append-only re-reads. */
export interface RowSpan {
  id: number;
  firstSeq: number;
  count: number;
}

export interface NormalizedHermesSession {
  session: Session;
  messages: Message[];
  spans: RowSpan[];
}

// Context-compression carriers are stored as user rows; they are not prompts the user typed. Newer
// stores flag them (`_compressed_summary`); older ones are recognised by the summary's opening words.
const COMPACTION_PREFIX = /^\s*\[(CONTEXT COMPACTION|CONTEXT SUMMARY|COMPACTED CONTEXT)/i;

function isoFromEpoch(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const d = new Date(value < 1e11 ? value * 1000 : value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Decodes plain or "\x00json:"-prefixed content to display text. */
export function decodeContent(content: string | null): string {
  if (content === null) return '';
  if (!content.startsWith('\x00json:') && !content.startsWith('\x01json:')) return content;
  const raw = content.slice(6);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof parsed === 'string') return parsed;
  if (!Array.isArray(parsed)) return JSON.stringify(parsed);
  const out: string[] = [];
  for (const part of parsed) {
    if (typeof part === 'string') out.push(part);
    else if (typeof part === 'object' && part !== null) {
      const p = part as Record<string, unknown>;
      if (typeof p.text === 'string') out.push(p.text);
      else if (p.type === 'image_url' || p.type === 'image' || p.type === 'input_image') out.push('[image]');
      else out.push(`[${typeof p.type === 'string' ? p.type : 'attachment'}]`);
    }
  }
  return out.join('\n');
}

interface ToolCall {
  id: string | null;
  name: string;
  args: string;
}

function parseToolCalls(raw: string | null): ToolCall[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [{ id: null, name: 'unknown', args: raw }];
  }
  if (!Array.isArray(parsed)) return [];
  const out: ToolCall[] = [];
  for (const c of parsed) {
    if (typeof c !== 'object' || c === null) continue;
    const call = c as Record<string, unknown>;
    const fn = (typeof call.function === 'object' && call.function !== null ? call.function : {}) as Record<string, unknown>;
    const name = str(fn.name) ?? str(call.name) ?? 'unknown';
    const argsValue = fn.arguments ?? call.arguments ?? call.input;
    const args = typeof argsValue === 'string' ? argsValue : argsValue === undefined ? '' : JSON.stringify(argsValue);
    out.push({ id: str(call.id) ?? str(call.call_id), name, args });
  }
  return out;
}

/** A tool result Hermes reports as failed: a JSON object whose `error` is set (and no output). */
function looksLikeError(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const obj = JSON.parse(text) as Record<string, unknown>;
    return typeof obj === 'object' && obj !== null && !!obj.error && obj.output === undefined && obj.content === undefined;
  } catch {
    return false;
  }
}

export function normalizeHermesSession(
  row: HermesSessionRow,
  rows: HermesMessageRow[],
  sourcePath: string,
  bytes: number,
): NormalizedHermesSession {
  const sessionId = `hermes:${row.id}`;
  const messages: Message[] = [];
  const spans: RowSpan[] = [];
  const toolNames: string[] = [];
  let firstPrompt: string | null = null;
  let userTurns = 0;
  let lastTs = 0;

  for (const r of rows) {
    const firstSeq = messages.length;
    const ts = isoFromEpoch(r.timestamp);
    if (typeof r.timestamp === 'number' && r.timestamp > lastTs) lastTs = r.timestamp;
    const nativeId = String(r.id);
    const push = (m: Omit<Message, 'seq' | 'sessionId' | 'timestamp' | 'nativeId'>) =>
      messages.push({ sessionId, seq: messages.length, timestamp: ts, nativeId, ...m });
    const text = decodeContent(r.content);
    switch (r.role) {
      case 'user': {
        const hidden = r.display_kind === 'hidden';
        const carrier = r.compressed_summary === 1 || COMPACTION_PREFIX.test(text);
        const real = !hidden && !carrier && text.trim() !== '';
        push({ role: real ? 'user' : 'system', kind: 'text', text, toolName: null, toolCallId: null, isError: false });
        if (real) {
          userTurns++;
          if (firstPrompt === null) firstPrompt = text;
        }
        break;
      }
      case 'assistant': {
        if (r.reasoning && r.reasoning.trim()) push({ role: 'assistant', kind: 'thinking', text: r.reasoning, toolName: null, toolCallId: null, isError: false });
        if (text.trim()) push({ role: 'assistant', kind: 'text', text, toolName: null, toolCallId: null, isError: false });
        for (const call of parseToolCalls(r.tool_calls)) {
          if (!toolNames.includes(call.name)) toolNames.push(call.name);
          push({ role: 'assistant', kind: 'tool_call', text: call.args, toolName: call.name, toolCallId: call.id, isError: false });
        }
        break;
      }
      case 'tool':
        push({ role: 'tool', kind: 'tool_result', text, toolName: r.tool_name, toolCallId: r.tool_call_id, isError: looksLikeError(text) });
        break;
      default:
        // 'system' rows (and unknown roles) are prompt scaffolding, not conversation.
        break;
    }
    spans.push({ id: r.id, firstSeq, count: messages.length - firstSeq });
  }

  const updated = Math.max(int(row.last_activity_at), int(row.ended_at), int(row.updated_at), lastTs, int(row.started_at));
  const title = str(row.title);
  const cwd = str(row.cwd);
  const branch = str(row.git_branch);
  const parent = str(row.parent_session_id);
  const session: Session = {
    id: sessionId,
    agent: 'hermes',
    nativeId: row.id,
    title: title && title.trim() ? title : null,
    cwd: cwd && cwd.trim() ? cwd : null,
    gitBranch: branch && branch.trim() ? branch : null,
    gitCommit: null,
    model: str(row.model),
    startedAt: isoFromEpoch(row.started_at),
    updatedAt: isoFromEpoch(updated),
    firstPrompt,
    userTurns,
    messageCount: messages.length,
    toolNames,
    usage: {
      input: int(row.input_tokens),
      output: int(row.output_tokens),
      cacheRead: int(row.cache_read_tokens),
      cacheWrite: int(row.cache_write_tokens),
      reasoning: int(row.reasoning_tokens),
    },
    parentId: parent ? `hermes:${parent}` : null,
    sourcePath,
    bytes,
  };
  return { session, messages, spans };
}
