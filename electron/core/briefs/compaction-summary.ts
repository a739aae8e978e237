/**
 * Summaries an agent wrote of its own earlier conversation when it compacted it: a ready-made
 * account of what came before, which a brief shows beside the latest state. Each agent stores them
 * as system text; this tells them from other system text by the shape the agent gives them.
 */
import type { AgentId } from '../../../shared/model.js';

/** pi's `/compact` (and automatic compaction) summary opens with its fixed `## Goal` section. */
const PI_SUMMARY = /^## Goal\b/;

export function isCompactionSummary(agent: AgentId, text: string): boolean {
  return agent === 'pi' && PI_SUMMARY.test(text);
}
