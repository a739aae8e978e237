/** What the notification says after a brief was copied (tray click or hotkey). Pure. */
import { AGENT_LABELS, type AgentId } from '../../shared/model.js';
import type { BriefResult } from '../../shared/api-types.js';
import { projectName } from '../../shared/project-labels.js';

const TARGET_LABELS: Record<string, string> = { generic: 'any agent', ...AGENT_LABELS };

export function briefCopiedNotice(brief: BriefResult, session: { agent: AgentId; cwd: string | null }, clearSeconds: number): { title: string; body: string } {
  const redactionCount = Object.values(brief.redactions).reduce((a, b) => a + b, 0);
  const redactions = !brief.redacted
    ? 'redaction off'
    : redactionCount === 0
      ? 'no secrets found'
      : `${redactionCount} redaction${redactionCount === 1 ? '' : 's'} (${Object.entries(brief.redactions).map(([kind, n]) => `${kind} ×${n}`).join(', ')})`;
  const parts = [`${brief.tokens.toLocaleString('en-US')} tokens for ${TARGET_LABELS[brief.target] ?? brief.target}`, redactions];
  if (clearSeconds > 0) parts.push(`clipboard clears in ${clearSeconds}s`);
  return { title: `Brief copied — ${AGENT_LABELS[session.agent]} · ${projectName(session.cwd)}`, body: parts.join(' · ') };
}
