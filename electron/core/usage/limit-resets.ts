/**
 * When a limit hit's reset time passes while Baton runs, the user hears it once: a pure function of
 * the hits, the clock and what was already told, so the rules are tested without timers or an index.
 */
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import type { LimitHit, LimitKind } from '../../../shared/limits.js';
import type { Checkpoint } from '../../../shared/api-types.js';
import type { UsageAlert } from '../../../shared/usage.js';
import { localClock } from '../../../shared/usage-format.js';

/** The agent a handoff from the hit's session went to, and the session that received it (once one did). */
export interface CarriedOn {
  agent: AgentId;
  session: string | null;
}

/** A hit recorded this long before the watch started still counts as live (an agent stopping as Baton starts). */
export const LIVE_SLACK_MS = 2 * 60_000;

/** Recorded while Baton watched: never a hit a cold index imports from an old transcript. */
export function isLiveHit(hit: Pick<LimitHit, 'at'>, startedAt: number): boolean {
  const at = hit.at ? Date.parse(hit.at) : Number.NaN;
  return at >= startedAt - LIVE_SLACK_MS;
}

const KIND_WORDS: Record<LimitKind, string> = { usage_limit: 'usage limit', rate_limit: 'rate limit', quota: 'quota' };

export interface ResetOptions {
  now: number;
  /** When Baton started watching: a reset that passed before it is not news. */
  startedAt: number;
  carriedOn(hit: LimitHit): CarriedOn | null;
  formatTime?: (iso: string) => string;
}

/** The words of a reset notice: "Claude Code's usage limit has reset (hit at 14:02). Codex CLI carried on (codex:…)." */
export function resetMessage(hit: LimitHit, carried: CarriedOn | null, formatTime: (iso: string) => string = localClock): string {
  const when = hit.at ? ` (hit at ${formatTime(hit.at)})` : '';
  const head = `${AGENT_LABELS[hit.agent]}'s ${KIND_WORDS[hit.kind]} has reset${when}.`;
  if (!carried) return `${head} You can continue its session.`;
  const where = carried.session ? ` (${carried.session})` : '';
  return `${head} ${AGENT_LABELS[carried.agent]} carried on${where}.`;
}

/**
 * Reset notices due now, one per agent (its latest hit whose reset passed, so several requests
 * refused in a row are one notice), and the time of the next reset still ahead. An agent with a
 * later hit still in force is not told yet (its weekly window may still be shut): that hit's reset
 * tells. `told` holds the hit keys settled; the ones settled now are added.
 */
export function decideLimitResets(hits: readonly LimitHit[], options: ResetOptions, told: Set<string>): { alerts: UsageAlert[]; nextAt: number | null } {
  let nextAt: number | null = null;
  const due = new Map<AgentId, LimitHit[]>();
  const blocked = new Map<AgentId, string>();
  for (const hit of hits) {
    if (!hit.resetsAt || told.has(hit.key)) continue;
    const reset = Date.parse(hit.resetsAt);
    if (!Number.isFinite(reset) || reset <= options.startedAt) continue;
    if (reset > options.now) {
      nextAt = nextAt === null ? reset : Math.min(nextAt, reset);
      const latest = blocked.get(hit.agent);
      if (latest === undefined || (hit.at ?? '') > latest) blocked.set(hit.agent, hit.at ?? '');
      continue;
    }
    const list = due.get(hit.agent) ?? [];
    list.push(hit);
    due.set(hit.agent, list);
  }
  const alerts: UsageAlert[] = [];
  for (const [agent, list] of due) {
    list.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
    const last = list[list.length - 1]!;
    const stillShut = blocked.get(agent);
    for (const hit of list) told.add(hit.key);
    if (stillShut !== undefined && stillShut >= (last.at ?? '')) continue;
    let carried: CarriedOn | null = null;
    for (let i = list.length - 1; i >= 0 && !carried; i--) carried = options.carriedOn(list[i]!);
    alerts.push({
      key: `reset:${last.key}`,
      kind: 'reset',
      agent,
      session: last.session,
      message: resetMessage(last, carried, options.formatTime),
      suggestedTarget: null,
      resetsAt: last.resetsAt,
      contextPercent: null,
      hit: last,
      carriedOnBy: carried,
    });
  }
  return { alerts, nextAt };
}

/**
 * The handoff that carried on after a hit: among the session's handoffs (newest first, as the user
 * data lists them), the earliest made at or after the hit, with its target and the session that
 * received it. An unattended handoff and a clicked one count alike.
 */
export function handoffAfterHit(handoffs: readonly Pick<Checkpoint, 'createdAt' | 'handoff'>[], hit: Pick<LimitHit, 'at'>): CarriedOn | null {
  let found: CarriedOn | null = null;
  for (const c of handoffs) {
    if (!c.handoff || (hit.at !== null && c.createdAt < hit.at)) continue;
    found = { agent: c.handoff.agent, session: c.handoff.receivedBy };
  }
  return found;
}
