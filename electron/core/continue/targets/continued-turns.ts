/**
 * What the Gemini CLI, Qwen Code, pi and OpenCode writers write, derived from one ContinuationPlan:
 * the planner's conversation (the opening turn that says where the session came from and carries
 * the brief, its acknowledgement, then the newest turns verbatim), same-role neighbours merged so
 * user and assistant strictly alternate, and times that are a pure function of the plan.
 */
import type { ContinuationPlan } from '../native-writer.js';
import { conversationOf } from '../plan-continuation.js';
import { hexFrom, uuidFrom } from '../native-ids.js';

export interface ContinuedMessage {
  role: 'user' | 'assistant';
  text: string;
  /** ISO-8601: the plan's creation time plus the message's position in ms (strictly increasing). */
  timestamp: string;
  /** Milliseconds since the epoch of `timestamp`. */
  ms: number;
}

export function continuedMessages(plan: ContinuationPlan): ContinuedMessage[] {
  const base = Date.parse(plan.createdAt);
  if (!Number.isFinite(base)) throw new Error(`continuation plan has no valid createdAt: ${plan.createdAt}`);
  const merged: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const turn of conversationOf(plan)) {
    const text = turn.text.trim();
    if (!text) continue;
    const last = merged[merged.length - 1];
    if (last?.role === turn.role) last.text = `${last.text}\n\n${text}`;
    else merged.push({ role: turn.role, text });
  }
  return merged.map((m, i) => ({ ...m, ms: base + i, timestamp: new Date(base + i).toISOString() }));
}

/** A UUID derived from the plan's key and a label (same plan → same id). */
export function planUuid(plan: ContinuationPlan, label: string): string {
  return uuidFrom(plan.key, `${plan.target}:${label}`);
}

/** `n` lowercase hex characters derived from the plan's key and a label. */
export function planHex(plan: ContinuationPlan, label: string, n: number): string {
  return hexFrom(plan.key, `${plan.target}:${label}`, n);
}

/** Rough token count (4 characters a token), for the usage fields targets insist on. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** One JSON object a line, with the trailing newline appenders expect. */
export function jsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
