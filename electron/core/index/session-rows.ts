/** Row ↔ model mapping for the index tables, shared by every read path. */
import type { AgentId, Message, MessageKind, MessageRole, SeqRange, Session, TokenUsage } from '../../../shared/model.js';
import { SEQ_SPAN } from './index-schema.js';

export interface SessionRow {
  rowid: number;
  id: string;
  agent: string;
  native_id: string;
  title: string | null;
  cwd: string | null;
  git_branch: string | null;
  git_commit: string | null;
  model: string | null;
  started_at: string | null;
  updated_at: string | null;
  first_prompt: string | null;
  user_turns: number;
  message_count: number;
  tool_names: string;
  usage: string;
  parent_id: string | null;
  parent_kind: string | null;
  source_path: string;
  bytes: number;
  source_gone: number;
  other_branches: string | null;
}

export const SESSION_COLUMNS = `s.rowid, s.id, s.agent, s.native_id, s.title, s.cwd, s.git_branch, s.git_commit, s.model,
  s.started_at, s.updated_at, s.first_prompt, s.user_turns, s.message_count, s.tool_names, s.usage, s.parent_id,
  s.parent_kind, s.source_path, s.bytes, s.source_gone, s.other_branches`;

const EMPTY_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function rowToSession(r: SessionRow): Session {
  return {
    id: r.id,
    agent: r.agent as AgentId,
    nativeId: r.native_id,
    title: r.title,
    cwd: r.cwd,
    gitBranch: r.git_branch,
    gitCommit: r.git_commit,
    model: r.model,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    firstPrompt: r.first_prompt,
    userTurns: r.user_turns,
    messageCount: r.message_count,
    toolNames: parseJson<string[]>(r.tool_names, []),
    usage: { ...EMPTY_USAGE, ...parseJson<Partial<TokenUsage>>(r.usage, {}) },
    parentId: r.parent_id,
    ...(r.parent_id && (r.parent_kind === 'subagent' || r.parent_kind === 'fork') ? { parentKind: r.parent_kind } : {}),
    sourcePath: r.source_path,
    bytes: r.bytes,
    sourceGone: r.source_gone === 1,
    ...(r.other_branches ? { otherBranchSeqs: parseJson<SeqRange[]>(r.other_branches, []) } : {}),
  };
}

export interface MessageRow {
  id: number;
  role: string;
  kind: string;
  text: string;
  tool_name: string | null;
  tool_call_id: string | null;
  is_error: number;
  timestamp: string | null;
  native_id: string | null;
}

export const MESSAGE_COLUMNS = 'm.id, m.role, m.kind, m.text, m.tool_name, m.tool_call_id, m.is_error, m.timestamp, m.native_id';

export function rowToMessage(sessionId: string, r: MessageRow): Message {
  return {
    sessionId,
    seq: r.id % SEQ_SPAN,
    role: r.role as MessageRole,
    kind: r.kind as MessageKind,
    text: r.text,
    toolName: r.tool_name,
    toolCallId: r.tool_call_id,
    isError: r.is_error === 1,
    timestamp: r.timestamp,
    nativeId: r.native_id,
  };
}
