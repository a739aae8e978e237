/**
 * The text a receiving agent gets at session start: who handed off what, the session reference,
 * how to close the loop (`complete_handoff`), then the brief as it was handed off.
 */
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';

export interface InjectedHandoff {
  handoffId: string;
  sourceSessionId: string;
  target: AgentId;
  createdAt: string;
  brief: string;
}

export function handoffInjectionText(h: InjectedHandoff): string {
  const from = AGENT_LABELS[h.sourceSessionId.split(':')[0] as AgentId] ?? 'another agent';
  return [
    `# Baton handoff ${h.handoffId}`,
    '',
    `This ${AGENT_LABELS[h.target]} session receives work handed off from ${from} session \`${h.sourceSessionId}\` ` +
      `(handed off ${h.createdAt}). The brief below says where that session stopped.`,
    'Read it, state your understanding and your next step before changing anything, then continue the work.',
    `When the handoff is done, call the Baton MCP tool \`complete_handoff\` with {"checkpoint_id": "${h.handoffId}"} ` +
      `(or {"session": "${h.sourceSessionId}"}); without Baton's MCP tools, ask the user to mark it completed in Baton.`,
    '',
    '---',
    '',
    h.brief.trimEnd(),
    '',
  ].join('\n');
}
