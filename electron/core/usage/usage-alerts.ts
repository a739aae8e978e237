/**
 * Which usage alerts to announce: a pure function of the previous and the current summary, so the
 * rules (cross the threshold, hit a limit, each once) are tested without a clock or an index.
 */
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';
import type { UsageAlert, UsageSummary } from '../../../shared/usage.js';
import { localClock } from '../../../shared/usage-format.js';

export interface AlertOptions {
  enabled: boolean;
  /** Context fill, percent, at which a live session is announced. */
  contextPercent: number;
  /** Agents a handoff may go to (enabled ones), in the user's order of preference. */
  targets: readonly AgentId[];
  /** Formats a reset time for the message (local "19:00" in the app). */
  formatTime?: (iso: string) => string;
}


/** Another agent that has room: not this one, and not one with a limit hit of its own. */
export function suggestTarget(agent: AgentId, summary: UsageSummary, targets: readonly AgentId[]): AgentId | null {
  const limited = new Set(summary.agents.filter((a) => a.limitHit).map((a) => a.agent));
  const candidates = (targets.length ? targets : AGENTS).filter((a) => a !== agent);
  return candidates.find((a) => !limited.has(a)) ?? candidates[0] ?? null;
}

/**
 * Alerts for what changed since `previous` (null: nothing known yet, so anything over the line is
 * new). `fired` holds the keys already announced; the keys returned are added to it.
 */
export function decideUsageAlerts(previous: UsageSummary | null, current: UsageSummary, options: AlertOptions, fired: Set<string>): UsageAlert[] {
  if (!options.enabled) return [];
  const format = options.formatTime ?? localClock;
  const before = new Map<string, number>();
  for (const a of previous?.agents ?? []) for (const s of a.liveSessions) if (s.contextPercent !== null) before.set(s.session, s.contextPercent);
  const out: UsageAlert[] = [];
  const push = (alert: UsageAlert) => {
    if (fired.has(alert.key)) return;
    fired.add(alert.key);
    out.push(alert);
  };
  for (const a of current.agents) {
    const target = suggestTarget(a.agent, current, options.targets);
    const handOff = target ? ` Hand off to ${AGENT_LABELS[target]}?` : '';
    if (a.limitHit) {
      const resets = a.limitHit.resetsAt ? ` (resets ${format(a.limitHit.resetsAt)})` : '';
      push({
        key: `limit:${a.agent}:${a.limitHit.at ?? a.limitHit.resetsAt ?? a.limitHit.session}`,
        kind: 'limit',
        agent: a.agent,
        session: a.limitHit.session,
        message: `${AGENT_LABELS[a.agent]} reached its usage limit${resets}.${handOff}`,
        suggestedTarget: target,
        resetsAt: a.limitHit.resetsAt,
        contextPercent: null,
        hit: a.limitHit,
      });
    }
    for (const s of a.liveSessions) {
      if (s.contextPercent === null || s.contextPercent < options.contextPercent) continue;
      const was = before.get(s.session);
      if (was !== undefined && was >= options.contextPercent) continue;
      // Once per crossing (named by the request that crossed): after a compaction, a second fill-up is news again.
      push({
        key: `context:${s.session}:${options.contextPercent}:${s.lastActivity ?? s.contextHistory.length}`,
        kind: 'context',
        agent: a.agent,
        session: s.session,
        message: `A ${AGENT_LABELS[a.agent]} session${s.title ? ` (${s.title.slice(0, 60)})` : ''} is at ${Math.round(s.contextPercent)} % of its context window.${handOff}`,
        suggestedTarget: target,
        resetsAt: null,
        contextPercent: s.contextPercent,
      });
    }
  }
  return out;
}
