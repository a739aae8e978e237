/**
 * Which agent "Open in" offers in the preview. A handoff goes to another agent, so it follows the
 * brief's target, and with the Generic target it defaults to an agent other than the session's own.
 */
import { AGENTS, type AgentId } from '../../../shared/model.js';
import type { BriefTarget } from '../../../shared/settings.js';

export function openTarget(target: BriefTarget, sessionAgent: AgentId | undefined, picked: AgentId | null = null): AgentId {
  if (picked !== null) return picked;
  if (target !== 'generic') return target;
  return AGENTS.find((agent) => agent !== sessionAgent) ?? AGENTS[0];
}
