/** The previewed session's handoffs to named agents: pending (until when), received by which session, completed. */
import { AGENT_LABELS } from '../../../shared/model.js';
import type { Checkpoint } from '../../../shared/api-types.js';
import { fullTime, relativeTime } from '../../../shared/time-labels.js';

export function handoffState(cp: Checkpoint, now = Date.now()): string {
  const h = cp.handoff;
  if (!h) return cp.status;
  if (cp.status === 'completed') return `completed ${relativeTime(cp.completedAt)}`;
  if (cp.status === 'received') return `received by ${h.receivedBy ?? 'an agent'}${cp.receivedAt ? ` ${relativeTime(cp.receivedAt)}` : ''}`;
  return Date.parse(h.expiresAt) <= now ? 'expired (never received)' : `pending until ${fullTime(h.expiresAt)}`;
}

export function HandoffStatus({ handoffs }: { handoffs: Checkpoint[] }) {
  if (handoffs.length === 0) return null;
  return (
    <div className="handoffs" aria-label="Handoffs" data-testid="handoffs">
      <h3>Handoffs</h3>
      <ul>
        {handoffs.slice(0, 3).map((cp) => (
          <li key={cp.id} data-status={cp.status}>
            <strong>{cp.handoff ? AGENT_LABELS[cp.handoff.agent] : '?'}</strong> — {handoffState(cp)}
            <span className="muted" title={cp.handoff?.projectDir}>
              {' '}
              in {cp.handoff?.projectDir}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
