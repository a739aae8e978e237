/**
 * What the four JSONL/import targets (Gemini CLI, Qwen Code, pi, OpenCode) write, derived from one
 * ContinuationPlan: strictly alternating user/assistant messages whose first user message says the
 * session was continued and carries the brief (merged with the first verbatim user turn, so no two
 * user messages follow each other), ids and times that are a pure function of the plan (idempotence).
 */
import { createHash } from 'node:crypto';
import type { ContinuationPlan } from '../native-writer.js';

export interface ContinuedMessage {
  role: 'user' | 'assistant';
  text: string;
  /** ISO-8601: the plan's creation time plus the message's position in ms (strictly increasing). */
  timestamp: string;
  /** Milliseconds since the epoch of `timestamp`. */
  ms: number;
}

/** The first user message: the continuation line, the brief, then (when any) the first verbatim user turn. */
export function openingText(plan: ContinuationPlan): string {
  return `${plan.title}\n(continued by Baton from ${plan.source.agent} session ${plan.source.nativeId})\n\n${plan.summary.trim()}`;
}

export function continuedMessages(plan: ContinuationPlan): ContinuedMessage[] {
  const base = Date.parse(plan.createdAt);
  if (!Number.isFinite(base)) throw new Error(`continuation plan has no valid createdAt: ${plan.createdAt}`);
  const merged: { role: 'user' | 'assistant'; text: string }[] = [{ role: 'user', text: openingText(plan) }];
  for (const turn of plan.turns) {
    const text = turn.text.trim();
    if (!text) continue;
    const last = merged[merged.length - 1]!;
    if (last.role === turn.role) last.text = `${last.text}\n\n${text}`;
    else merged.push({ role: turn.role, text });
  }
  return merged.map((m, i) => ({ ...m, ms: base + i, timestamp: new Date(base + i).toISOString() }));
}

/** sha256 of the plan's key and a label: every id a writer derives comes from here. */
export function keyDigest(plan: ContinuationPlan, label: string): Buffer {
  return createHash('sha256').update(`${plan.key}\u0000${plan.target}\u0000${label}`).digest();
}

/** A version-4-shaped UUID derived from the plan (same plan → same id). */
export function planUuid(plan: ContinuationPlan, label: string): string {
  const b = Buffer.from(keyDigest(plan, label).subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `n` lowercase hex characters derived from the plan. */
export function planHex(plan: ContinuationPlan, label: string, n: number): string {
  return keyDigest(plan, label).toString('hex').slice(0, n);
}

/** Rough token count (4 characters a token), for the usage fields targets insist on. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** One JSON object a line, with the trailing newline appenders expect. */
export function jsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
