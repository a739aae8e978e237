/**
 * The receiving side of a handoff: a new session of `agent` in some folder asks whether a handoff
 * waits for it there. The newest pending, unexpired handoff whose folder (or subfolder, or git
 * work tree) matches is marked "received by <agent>:<session id>" — once: a later session in the
 * same folder gets nothing — and its text comes back for the agent's context.
 */
import type { AgentId } from '../../../shared/model.js';
import type { HandoffStore, PendingHandoffRow } from './handoff-store.js';
import { handoffInjectionText } from './handoff-text.js';
import { matchProject, worktreeRoot } from './project-match.js';

export interface ClaimRequest {
  agent: AgentId;
  /** The agent's own session id (Baton's id is `<agent>:<sessionId>`). */
  sessionId: string;
  cwd: string;
  /** Why the session started, as the agent says (`startup`, `resume`, `clear`, `compact`, …). */
  source?: string | null;
}

export interface ClaimedHandoff {
  handoffId: string;
  text: string;
  /** True when this is a handoff the session already received, put back after a compaction. */
  reinjected: boolean;
}

export function claimPendingHandoff(store: HandoffStore, request: ClaimRequest, now: Date = new Date()): ClaimedHandoff | null {
  const receiver = `${request.agent}:${request.sessionId}`;
  const at = now.toISOString();
  const candidates = store.pendingFor(request.agent, at);
  let cwdRoot: string | null | undefined;
  const rootOfCwd = () => (cwdRoot === undefined ? (cwdRoot = worktreeRoot(request.cwd)) : cwdRoot);
  for (const row of candidates) {
    if (!matchProject({ projectDir: row.project_dir, worktreeRoot: row.worktree_root }, request.cwd, rootOfCwd)) continue;
    if (!store.claim(row.id, receiver, at)) continue; // another session took it a moment ago
    return { handoffId: row.id, text: textOf(row, request.agent), reinjected: false };
  }
  // Compaction dropped the earlier context: put back what this very session received.
  if (request.source === 'compact') {
    const [mine] = store.receivedBy(receiver);
    if (mine) return { handoffId: mine.id, text: textOf(mine, request.agent), reinjected: true };
  }
  return null;
}

function textOf(row: PendingHandoffRow, agent: AgentId): string {
  return handoffInjectionText({
    handoffId: row.id,
    sourceSessionId: row.session_id,
    target: agent,
    createdAt: row.created_at,
    brief: row.brief ?? '(The brief was not stored with this handoff: call restore_session for the session above.)',
  });
}
