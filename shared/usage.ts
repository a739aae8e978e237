/**
 * Token usage and cost as `baton usage`, the API and MCP's `usage_summary` report them. Field names
 * follow ccusage's JSON (inputTokens, cacheCreationTokens, …) so its users read them at once.
 */
import type { LimitHit } from './limits.js';
import type { AgentId, UsageLimit } from './model.js';

export const USAGE_GROUPINGS = ['session', 'day', 'block', 'model'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  reasoningTokens: number;
  /** input + output + cache creation + cache read (reasoning is part of output). */
  totalTokens: number;
  /** USD; null when no model of these requests has a price. */
  costUSD: number | null;
  /** Models used, in order of first use. */
  models: string[];
  /** Models without a price (their tokens are not in costUSD). */
  unpricedModels: string[];
  requests: number;
}

/** A session's own share of its totals: its requests without its subagents'. */
export type OwnUsage = Pick<UsageTotals, 'inputTokens' | 'outputTokens' | 'cacheCreationTokens' | 'cacheReadTokens' | 'reasoningTokens' | 'totalTokens' | 'costUSD' | 'requests'>;

/** The totals of a session include its subagents' requests (children whose parentKind is 'subagent'); `own` is its share. */
export interface SessionUsage extends UsageTotals {
  /** Baton's id, `agent:nativeId`. */
  session: string;
  agent: AgentId;
  title: string | null;
  cwd: string | null;
  lastActivity: string | null;
  /** Prompt tokens of the session's latest request (what the context held then); null if unknown. */
  contextTokens: number | null;
  contextWindow: number | null;
  /** contextTokens / contextWindow, 0–100. */
  contextPercent: number | null;
  /** Prompt tokens per request, oldest first (at most the last 200), for a sparkline. */
  contextHistory: number[];
  /** The session's own requests, without its subagents'. */
  own: OwnUsage;
  /** Subagent sessions (any depth) whose requests the totals include; each has its own row too. */
  subagents: string[];
  /** The session's own last limit hit, whether or not its reset has passed (null: none recorded). */
  limitHit: LimitHit | null;
}

export interface DayUsage extends UsageTotals {
  /** Local calendar day, YYYY-MM-DD. */
  date: string;
  agents: AgentId[];
}

export interface ModelUsage extends UsageTotals {
  model: string;
  agents: AgentId[];
}

/** A 5-hour billing window as ccusage's `blocks` groups Claude usage. */
export interface BlockUsage extends UsageTotals {
  start: string;
  end: string;
  /** Time of the block's last request. */
  actualEnd: string;
  isActive: boolean;
  agents: AgentId[];
}

export interface AgentUsageSummary {
  agent: AgentId;
  today: UsageTotals;
  /** The agent's own usage windows as last reported (Codex rate limits), newest per window. */
  windows: (UsageLimit & { reportedAt: string | null })[];
  /** The agent's last limit hit (any session), while its reset is still ahead (or, unknown, for a 5-hour block). */
  limitHit: LimitHit | null;
  /** Sessions active in the last hour, newest first, with their context fill. */
  liveSessions: SessionUsage[];
  /** The current 5-hour block of this agent, when one is active. */
  activeBlock: BlockUsage | null;
}

export interface UsageSummary {
  generatedAt: string;
  agents: AgentUsageSummary[];
  /** Set when one session was asked for. */
  session?: SessionUsage;
}

/** Something a user watching their quota should hear about now (the core emits each once). */
export interface UsageAlert {
  /** Stable identity: the same key is never announced twice. */
  key: string;
  /** `reset`: a limit hit's reset time passed while Baton ran (told once per hit). */
  kind: 'context' | 'limit' | 'reset';
  agent: AgentId;
  /** The session that filled up, or the one whose transcript says the limit was reached. */
  session: string;
  /** Ready to show: "Claude Code reached its usage limit (resets 19:00). Hand off to Codex CLI?" */
  message: string;
  /** The agent to hand off to (null when no other agent is enabled). */
  suggestedTarget: AgentId | null;
  resetsAt: string | null;
  contextPercent: number | null;
  /** For `limit` and `reset`: the hit itself. */
  hit?: LimitHit;
  /** For `reset`: the agent (and its session, once received) a handoff from the hit's session went to. */
  carriedOnBy?: { agent: AgentId; session: string | null } | null;
}
