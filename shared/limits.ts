/**
 * Limit hits: a session stopped because the agent's plan, rate or quota limit was reached, as the
 * agent's own transcript records it (Claude's API-error messages, Codex's exhausted windows and
 * task_complete errors, Gemini's/Qwen's RESOURCE_EXHAUSTED, …). Found at ingest, kept in the index.
 */
import type { AgentId } from './model.js';

/**
 * `usage_limit`: the plan's allowance for a window (5-hour, weekly) is used up; `rate_limit`: too many
 * requests or tokens per minute; `quota`: a billing/credit or daily quota (RESOURCE_EXHAUSTED, "credit
 * balance is too low"). Overloaded servers and other API errors are not limit hits.
 */
export const LIMIT_KINDS = ['usage_limit', 'rate_limit', 'quota'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** How an API error the agent recorded reads: only `limit` is a limit hit. */
export type ApiErrorClass = { class: 'limit'; kind: LimitKind } | { class: 'overloaded' } | { class: 'other' };

export interface LimitHit {
  /** Stable identity (session and time of the hit): the same hit always has the same key. */
  key: string;
  agent: AgentId;
  /** Baton's session id (`agent:nativeId`) whose transcript records the hit. */
  session: string;
  /** ISO-8601 time the agent recorded the hit, when known. */
  at: string | null;
  /** ISO-8601 time the limit resets, where the agent recorded it (headers, fields, its message). */
  resetsAt: string | null;
  kind: LimitKind;
  /** Which window, when the agent says (`five_hour`, `primary`, `secondary`, …). */
  window: string | null;
  /** The agent's own words (e.g. "You've hit your usage limit…"), at most 200 characters. */
  note: string | null;
}

/** The identity of a hit: session and time (or reset time), so re-reading a transcript keeps it. */
export function limitHitKey(session: string, at: string | null, resetsAt: string | null): string {
  return `${session}@${at ?? resetsAt ?? ''}`;
}
