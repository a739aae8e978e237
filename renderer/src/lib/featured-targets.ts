/**
 * Which brief targets the preview's picker shows as one-click radios. Thirteen agents and Generic
 * do not fit one row of the 420 px popover, so the row holds Generic and the few agents this user
 * works with; the rest sit in the picker's "More" menu (every target stays one `t` press away).
 */
import { AGENTS, type AgentId, type SourceStatus } from '../../../shared/model.js';
import type { BriefTarget } from '../../../shared/settings.js';

/** Agents in the row besides Generic: what fits at 420 px next to the "More" menu in both themes. */
export const FEATURED_AGENTS = 4;

export interface FeaturedInput {
  /** The stores Baton reads (shell slice `sources`). */
  sources: readonly (Pick<SourceStatus, 'agent' | 'host' | 'sessions'> & Partial<Pick<SourceStatus, 'latestAt'>>)[];
  /** Settings' default target: the agent the user said they brief for most. */
  defaultTarget: BriefTarget | undefined;
  limit?: number;
}

/**
 * Generic, then up to `limit` agents in the canonical order: the default target first, then the
 * agents this user worked with most recently on this machine (their newest session's last change;
 * more sessions, then the canonical order, break ties). With no store on this machine (sessions read
 * only over SSH), the stores of the other machines count. Never an agent without sessions: the
 * row names what this user works with, newest first, so the agent just left is one click away.
 */
export function featuredTargets(input: FeaturedInput): BriefTarget[] {
  const limit = input.limit ?? FEATURED_AGENTS;
  const used = input.sources.filter((source) => source.sessions > 0);
  const local = used.filter((source) => source.host === undefined);
  const sessions = new Map<AgentId, number>();
  /** Epoch ms of each agent's newest session (0: none has a time). */
  const latest = new Map<AgentId, number>();
  for (const source of local.length ? local : used) {
    sessions.set(source.agent, (sessions.get(source.agent) ?? 0) + source.sessions);
    const at = source.latestAt ? Date.parse(source.latestAt) : Number.NaN;
    if (at > (latest.get(source.agent) ?? 0)) latest.set(source.agent, at);
  }
  const ranked = [...sessions.keys()].sort(
    (a, b) =>
      (latest.get(b) ?? 0) - (latest.get(a) ?? 0) ||
      (sessions.get(b) ?? 0) - (sessions.get(a) ?? 0) ||
      AGENTS.indexOf(a) - AGENTS.indexOf(b),
  );
  const wanted = input.defaultTarget && input.defaultTarget !== 'generic' ? [input.defaultTarget, ...ranked] : ranked;
  const chosen = new Set(wanted.slice(0, limit));
  return ['generic', ...AGENTS.filter((agent) => chosen.has(agent))];
}

/** The targets left for the "More" menu, in the canonical order. */
export function moreTargets(featured: readonly BriefTarget[]): AgentId[] {
  return AGENTS.filter((agent) => !featured.includes(agent));
}
