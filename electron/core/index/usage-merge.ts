/**
 * A batch's usage events folded to one per (session, key), by the rules the writer's upsert applies
 * to a repeat (index-writer.ts upsertUsage): Claude writes one line per content block of a response,
 * each with the response's usage, so a cold index met every key about twice and paid a conflicting
 * upsert for each repeat. Folded first, the row comes out the same (the rules are associative: the
 * first time seen, the last model, context window and limits said, the largest counts).
 */
import type { UsageEvent } from '../../../shared/model.js';

export function mergeUsage(events: readonly UsageEvent[]): UsageEvent[] {
  if (events.length < 2) return events as UsageEvent[];
  const byKey = new Map<string, UsageEvent>();
  for (const e of events) {
    const id = `${e.sessionId}\n${e.key}`;
    const seen = byKey.get(id);
    if (!seen) {
      byKey.set(id, e);
      continue;
    }
    byKey.set(id, {
      sessionId: e.sessionId,
      key: e.key,
      at: seen.at ?? e.at,
      model: e.model ?? seen.model,
      input: Math.max(seen.input, e.input),
      output: Math.max(seen.output, e.output),
      cacheRead: Math.max(seen.cacheRead, e.cacheRead),
      cacheWrite: Math.max(seen.cacheWrite, e.cacheWrite),
      reasoning: Math.max(seen.reasoning, e.reasoning),
      contextWindow: e.contextWindow ?? seen.contextWindow,
      limits: e.limits ?? seen.limits,
    });
  }
  return byKey.size === events.length ? (events as UsageEvent[]) : [...byKey.values()];
}
