/**
 * The normalized session model every agent adapter produces and every consumer reads.
 * Plain types only: this file is imported by the core, the Electron glue and the renderer.
 */

import type { LimitKind } from './limits.js';

export const AGENTS = ['claude', 'codex', 'opencode', 'hermes', 'gemini', 'qwen', 'pi', 'cline', 'kilo', 'copilot', 'continue', 'droid', 'letta'] as const;
export type AgentId = (typeof AGENTS)[number];

export const AGENT_LABELS: Record<AgentId, string> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  opencode: 'OpenCode',
  hermes: 'Hermes Agent',
  gemini: 'Gemini CLI',
  qwen: 'Qwen Code',
  pi: 'pi',
  cline: 'Cline',
  kilo: 'Kilo Code',
  copilot: 'GitHub Copilot CLI',
  continue: 'Continue',
  droid: 'Factory Droid',
  letta: 'Letta Code',
};

/** What a brief can be rendered for: one of the agents, or a generic reader. */
export const BRIEF_TARGETS = ['generic', ...AGENTS] as const;
export type BriefTarget = (typeof BRIEF_TARGETS)[number];

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENTS as readonly string[]).includes(value);
}

export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /** USD the agent itself computed for these tokens, where it records one (pi); absent otherwise. */
  costUsd?: number;
  /**
   * The prompt side of the session's latest model request, where the agent records it beside its
   * running totals (Droid's `lastCallTokenUsage`): what the context holds now. Agents whose usage
   * comes per request (usage events) need none.
   */
  lastRequest?: { input: number; cacheRead: number; cacheWrite: number };
}

/**
 * One model request's token usage, as the agent recorded it (Claude: an API response, deduplicated by
 * message id + request id; Codex: a `token_count` event's `last_token_usage`). `key` is unique within
 * the session; a record seen again with the same key replaces the earlier one (streaming growth).
 */
export interface UsageEvent {
  sessionId: string;
  key: string;
  /** ISO-8601 time of the request, when recorded. */
  at: string | null;
  model: string | null;
  /** Uncached input tokens. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /** The model's context window, when the agent records it (Codex `model_context_window`). */
  contextWindow: number | null;
  /** Usage windows the agent reported with this request (Codex `rate_limits`), or a limit hit. */
  limits: UsageLimit[] | null;
}

export interface UsageLimit {
  /** `primary`/`secondary` (Codex), or `reached` for a transcript line saying the limit was hit. */
  name: string;
  usedPercent: number | null;
  windowMinutes: number | null;
  /** ISO-8601. */
  resetsAt: string | null;
  /** The agent's own words, for a limit hit (e.g. "You've hit your limit · resets 7pm"). */
  note: string | null;
  /** For `reached`: which kind of limit (absent in rows indexed before kinds were recorded: usage_limit). */
  kind?: LimitKind;
  /** For `reached`: which window stopped the session, when the agent says (`five_hour`, `primary`). */
  window?: string | null;
}

/** Inclusive range of message seqs [first, last]. */
export type SeqRange = [number, number];

export type ParentKind = 'subagent' | 'fork';

export interface Session {
  /** `<agent>:<nativeId>` — unique across agents. */
  id: string;
  agent: AgentId;
  nativeId: string;
  /** Best title the agent stores (see each adapter for precedence); null when none. */
  title: string | null;
  cwd: string | null;
  gitBranch: string | null;
  gitCommit: string | null;
  model: string | null;
  /** ISO-8601 timestamps. */
  startedAt: string | null;
  updatedAt: string | null;
  /** The first real user prompt, exactly as the agent stored it. */
  firstPrompt: string | null;
  /** Real user prompts: not tool results, not meta/command scaffolding, not compaction summaries. */
  userTurns: number;
  messageCount: number;
  /** Unique tool names, in order of first use. */
  toolNames: string[];
  usage: TokenUsage;
  /** Parent session id (`<agent>:<nativeId>`) for subagent transcripts and forks. */
  parentId: string | null;
  /**
   * What the parent link means: a `subagent` the parent ran (its requests count in the parent's
   * usage, as ccusage counts them), or a `fork` (a resume, fork or continuation that copied the
   * parent's history; counted on its own). Absent when there is no parent or the agent doesn't say.
   */
  parentKind?: ParentKind;
  sourcePath: string;
  bytes: number;
  /**
   * Messages on branches the user left (pi's `/tree`): search still finds them, while briefs,
   * counts and state follow the current conversation. Absent when the transcript is a plain list.
   */
  otherBranchSeqs?: SeqRange[];
  /** True once the agent deleted the transcript: Baton keeps history the agents drop. */
  sourceGone?: boolean;
}

export const MESSAGE_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export const MESSAGE_KINDS = ['text', 'thinking', 'tool_call', 'tool_result'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface Message {
  sessionId: string;
  /** Position within the session, 0-based, stable across re-reads. */
  seq: number;
  role: MessageRole;
  kind: MessageKind;
  text: string;
  toolName: string | null;
  toolCallId: string | null;
  isError: boolean;
  timestamp: string | null;
  /** The agent's own id for the record this message came from, when it has one. */
  nativeId: string | null;
}

export type SourceState = 'ok' | 'not_found' | 'unreadable' | 'disabled';

export interface Diagnostic {
  /** File (or database) the problem was found in. */
  file: string;
  /** 1-based line number for JSONL files, when known. */
  line?: number;
  /** Byte offset of that line in the file, when known. */
  offset?: number;
  message: string;
  at: string;
  /**
   * Set when the diagnostic is (part of) a problem the index keeps until the file reads cleanly
   * (see SourceProblem); 'reread' is no problem: the file is read again from its start, so the
   * line problems recorded for it before no longer hold.
   */
  kind?: ProblemKind | 'reread';
}

/**
 * What can keep a store or session file from being read (wholly):
 * - `unreadable`: the file or database could not be read at all (corrupt, not a database, a
 *   directory where a file belongs, no permission, locked);
 * - `line_too_long`: lines over the reader's limit were skipped (the rest of the file was read);
 * - `malformed_lines`: lines that are not JSON objects (or not records Baton understands) were skipped;
 * - `invalid_utf8`: lines with bytes that are not UTF-8 were read with those bytes replaced (U+FFFD);
 * - `unfinished_line`: the file ends in a partial line that has stayed unfinished (an agent that
 *   crashed mid-write; a partial line while the agent writes is normal and not listed).
 */
export const PROBLEM_KINDS = ['unreadable', 'line_too_long', 'malformed_lines', 'invalid_utf8', 'unfinished_line'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** A store or session file Baton could not read (wholly), remembered by the index until it reads. */
export interface SourceProblem {
  file: string;
  kind: ProblemKind;
  /** `invalid_utf8` loses nothing (the line is kept, repaired); everything else does. */
  severity: 'error' | 'warning';
  /** Why, in words (for line problems: the first such line's reason). */
  message: string;
  /** Lines affected (1 for file problems). */
  count: number;
  /** The first affected line: 1-based number and byte offset in the file. */
  line?: number;
  offset?: number;
  /** When Baton first saw the problem (for `unfinished_line`: when the file last changed). */
  since: string;
}

export interface SourceStatus {
  agent: AgentId;
  /** The machine the store is on (settings label), for a host read over SSH; absent for this machine. */
  host?: string;
  state: SourceState;
  /** Roots that were looked at, in order. */
  roots: string[];
  sessions: number;
  messages: number;
  filesRead: number;
  skippedLines: number;
  lastError: string | null;
  lastReadAt: string | null;
  /**
   * When the store's most recently active session last changed, as the index holds it (null: no
   * session has a time). Set by the index; adapters leave it out.
   */
  latestAt?: string | null;
  /** Most recent diagnostics, newest last, capped. */
  diagnostics: Diagnostic[];
  /**
   * Files of this store that Baton could not read (wholly), with the reason, as the index remembers
   * them (so every process sees them until the file reads). Set by the index; adapters leave it out.
   */
  problems?: SourceProblem[];
}
