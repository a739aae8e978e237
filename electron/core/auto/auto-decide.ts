/**
 * What happened while Baton watched that may call for carrying on: pure functions of a live limit
 * hit and the usage summary, so the rules (only what happened while Baton watched; the target with
 * room; the limit window) are tested without a clock, an index or a terminal.
 */
import type { AgentId } from '../../../shared/model.js';
import type { AutoRule, AutoTrigger } from '../../../shared/auto-continue.js';
import type { UsageSummary } from '../../../shared/usage.js';
import type { LimitHit } from '../../../shared/limits.js';

/** A Claude 5-hour block: the window a hit without a known reset is taken to last. */
export const DEFAULT_WINDOW_MS = 5 * 60 * 60 * 1000;

export interface AutoCandidate {
  trigger: AutoTrigger;
  agent: AgentId;
  session: string;
  /** When the hit (or the request that crossed the context threshold) happened. */
  at: string;
  resetsAt: string | null;
  /** Limit: the reset, else the hit + 5 h. Context: null (once per session). */
  windowEnd: string | null;
  contextPercent: number | null;
}

/** A live limit hit (the `limit-hit` event: recorded while Baton watched) as something to act on. */
export function limitCandidate(hit: LimitHit): AutoCandidate | null {
  if (!hit.at || !hit.session) return null;
  const windowEnd = hit.resetsAt ?? new Date(Date.parse(hit.at) + DEFAULT_WINDOW_MS).toISOString();
  return { trigger: 'limit', agent: hit.agent, session: hit.session, at: hit.at, resetsAt: hit.resetsAt, windowEnd, contextPercent: null };
}

/**
 * Live sessions over the context threshold whose latest request came at or after `since` (when Baton
 * began watching): a session last active before that is history, not news, and opens nothing.
 */
export function contextCandidates(summary: UsageSummary, options: { since: string; contextPercent: number }): AutoCandidate[] {
  const since = Date.parse(options.since);
  const out: AutoCandidate[] = [];
  for (const a of summary.agents) {
    for (const s of a.liveSessions) {
      if (s.contextPercent === null || s.contextPercent < options.contextPercent || !s.lastActivity) continue;
      if (Date.parse(s.lastActivity) < since) continue;
      out.push({ trigger: 'context', agent: a.agent, session: s.session, at: s.lastActivity, resetsAt: null, windowEnd: null, contextPercent: s.contextPercent });
    }
  }
  return out;
}

/** Whether `rule` asks for this candidate: its trigger, and it happened after the folder was switched on. */
export function ruleWants(rule: AutoRule, candidate: AutoCandidate): boolean {
  return rule.when.includes(candidate.trigger) && Date.parse(candidate.at) >= Date.parse(rule.createdAt);
}

/** Agents whose own limit is known to be hit now: a hit still in its window, or a window at 100 %. */
export function limitedAgents(summary: UsageSummary, now: Date): Set<AgentId> {
  const out = new Set<AgentId>();
  for (const a of summary.agents) {
    if (a.limitHit) out.add(a.agent);
    for (const w of a.windows) {
      if (w.usedPercent !== null && w.usedPercent >= 100 && (!w.resetsAt || Date.parse(w.resetsAt) > now.getTime())) out.add(a.agent);
    }
  }
  return out;
}

/** The first agent of the user's order that is not the source and has room; the others are why not. */
export function chooseTarget(targets: readonly AgentId[], source: AgentId, limited: ReadonlySet<AgentId>): { target: AgentId | null; skipped: AgentId[] } {
  const skipped: AgentId[] = [];
  for (const t of targets) {
    if (t === source) continue;
    if (limited.has(t)) {
      skipped.push(t);
      continue;
    }
    return { target: t, skipped };
  }
  return { target: null, skipped };
}
