/**
 * The checkpoint a PreCompact hook saves: what the transcript says right before the agent
 * compacts it away (the last request and the last answer), so a brief written after the
 * compaction still knows the earlier state. Idempotent per compaction (session + transcript size).
 */
import type { AgentId } from '../../../shared/model.js';
import type { Checkpoint } from '../../../shared/api-types.js';
import type { UserData } from '../userdata/user-data.js';
import { readTranscriptTail } from './transcript-tail.js';

const MAX_PART = 6000;

function clip(text: string): string {
  return text.length > MAX_PART ? `${text.slice(0, MAX_PART)}…` : text;
}

export function savePreCompactCheckpoint(
  userData: UserData,
  input: { agent: AgentId; sessionId: string; transcriptPath: string; trigger: string | null },
  now: Date = new Date(),
): Checkpoint | null {
  const tail = readTranscriptTail(input.transcriptPath);
  if (!tail.lastAssistant && !tail.lastUser) return null;
  const sessionId = `${input.agent}:${input.sessionId}`;
  const parts = [`Automatic checkpoint before ${input.trigger === 'manual' ? 'a manual' : 'an automatic'} compaction.`];
  if (tail.lastUser) parts.push(`Last request: ${clip(tail.lastUser)}`);
  if (tail.lastAssistant) parts.push(`State before compaction: ${clip(tail.lastAssistant)}`);
  const previous = userData.latestCheckpoint(sessionId);
  const { checkpoint } = userData.saveCheckpoint({
    sessionId,
    idempotencyToken: `precompact:${sessionId}:${tail.size}`,
    summary: parts.join('\n\n'),
    decisions: [],
    nextSteps: previous?.nextSteps ?? [],
    blockers: previous?.blockers ?? [],
    itemsCompleted: [],
    itemsAdded: [],
    filesChanged: [],
    continuesFrom: previous?.id ?? null,
    git: null,
    gitFingerprint: {},
    createdAt: now.toISOString(),
  });
  return checkpoint;
}
