/** checkpoint_session, restore_session, generate_brief, complete_handoff: the handoff itself. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, parseApiInput } from '../../../../shared/contract.js';
import type { BriefResult, Checkpoint, GitDrift, GitSnapshot } from '../../../../shared/api-types.js';
import { boundPaths, boundTextList, VIEW_LIST_CHARS } from '../../briefs/bounded-lists.js';
import { clipChars } from '../../briefs/fit-items.js';
import type { AgentId } from '../../../../shared/model.js';
import type { BriefTarget } from '../../../../shared/settings.js';
import type { McpCore } from '../mcp-core.js';
import { fail, guarded, MISSING_SESSION, ok, pickSession } from './tool-result.js';

type SessionArgs = { session?: string; session_id?: string; title?: string };

/** Work-tree lists cut to their first paths with true counts: a repo may have 100k untracked files. */
function gitView(git: GitSnapshot | null) {
  if (!git) return null;
  if (!git.isRepo) return { is_repo: false, note: git.error };
  const [staged, unstaged, untracked] = [git.staged, git.unstaged, git.untracked].map((l) => boundPaths(l));
  return {
    branch: git.branch,
    head: git.head,
    staged: staged!.shown,
    unstaged: unstaged!.shown,
    untracked: untracked!.shown,
    counts: { staged: staged!.total, unstaged: unstaged!.total, untracked: untracked!.total },
    ahead: git.ahead,
    behind: git.behind,
  };
}

/** Drift as the service bounds it (commit and file lists with totals), its work-tree snapshot cut too. */
function driftView(drift: GitDrift | null) {
  if (!drift) return null;
  const { now, ...rest } = drift;
  return { ...rest, now: gitView(now) };
}

function checkpointView(cp: Checkpoint | null) {
  if (!cp) return null;
  return {
    checkpoint_id: cp.id,
    session: cp.sessionId,
    status: cp.status,
    created_at: cp.createdAt,
    received_at: cp.receivedAt,
    completed_at: cp.completedAt,
    // The brief (held to its budget) carries the content; this view only shows what the checkpoint holds.
    summary: clipChars(cp.summary, VIEW_LIST_CHARS),
    decisions: boundTextList(cp.decisions, 'decisions'),
    next_steps: boundTextList(cp.nextSteps, 'next steps'),
    blockers: boundTextList(cp.blockers, 'blockers'),
    files: boundTextList(cp.filesChanged, 'files'),
    ...(cp.handoff
      ? { handed_off_to: cp.handoff.agent, project_dir: cp.handoff.projectDir, expires_at: cp.handoff.expiresAt, received_by: cp.handoff.receivedBy }
      : {}),
  };
}

function briefMeta(brief: BriefResult) {
  return { session: brief.sessionId, target: brief.target, format: brief.format, tokens: brief.tokens, budget: brief.budget, redactions: brief.redactions, open_command: brief.openCommand };
}

function normalizeDir(dir: string): string {
  return dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir;
}

/** The agent's most recent session whose working directory is exactly `cwd`. */
async function latestSessionIn(core: McpCore, agent: AgentId, cwd: string): Promise<string> {
  const wanted = normalizeDir(cwd);
  const page = await core.api.listSessions(parseApiInput('listSessions', { agent, project: wanted, limit: 200 }));
  const exact = page.sessions.find((s) => s.cwd !== null && normalizeDir(s.cwd) === wanted);
  if (exact) return exact.id;
  throw new ApiError('not_found', `Baton has no ${agent} session whose working directory is ${wanted}.`);
}

export interface CheckpointArgs extends SessionArgs {
  agent?: AgentId;
  cwd?: string;
  summary: string;
  decisions?: string[];
  next_steps?: string[];
  blockers?: string[];
  files?: string[];
  idempotency_token?: string;
}

export function checkpointSession(core: McpCore, args: CheckpointArgs): Promise<CallToolResult> {
  const ref = pickSession(args);
  if (!ref && !(args.agent && args.cwd)) {
    return Promise.resolve(
      fail('Say which session to checkpoint: pass `session` (its id), or both `agent` (your agent type, e.g. "claude") and `cwd` (your working directory).'),
    );
  }
  return guarded(
    async () => {
      let sessionId: string;
      if (ref) {
        const session = await core.api.getSession(parseApiInput('getSession', { session: ref }));
        // Re-read the native store so the checkpoint sees the turns written since the last index pass.
        await core.syncNow(session.agent);
        sessionId = session.id;
      } else {
        await core.syncNow(args.agent!);
        sessionId = await latestSessionIn(core, args.agent!, args.cwd!);
      }
      const cp = await core.api.createCheckpoint(
        parseApiInput('createCheckpoint', {
          session: sessionId,
          summary: args.summary,
          decisions: args.decisions ?? [],
          nextSteps: args.next_steps ?? [],
          blockers: args.blockers ?? [],
          filesChanged: args.files ?? [],
          idempotencyToken: args.idempotency_token,
        }),
      );
      return ok({
        checkpoint_id: cp.id,
        session: cp.sessionId,
        status: cp.status,
        created_at: cp.createdAt,
        idempotency_token: cp.idempotencyToken,
        git: gitView(cp.git),
        next: `Saved. The next agent continues with restore_session { "session": "${cp.sessionId}" }.`,
      });
    },
    { session: ref },
  );
}

export interface RestoreArgs extends SessionArgs {
  confirmed?: boolean;
  target?: BriefTarget;
  budget?: number;
}

export function restoreSession(core: McpCore, args: RestoreArgs): Promise<CallToolResult> {
  const ref = pickSession(args);
  if (!ref) return Promise.resolve(fail(MISSING_SESSION));
  return guarded(
    async () => {
      const result = await core.api.restore(
        parseApiInput('restore', { session: ref, confirmed: args.confirmed ?? false, target: args.target, budget: args.budget }),
      );
      const packet = {
        session: result.sessionId,
        checkpoint: checkpointView(result.checkpoint),
        drift: driftView(result.drift),
        summary: result.summary,
      };
      if (!args.confirmed || !result.brief) {
        return ok({
          ...packet,
          next: 'Show the user the drift and summary above. To continue, call restore_session again with the same session and confirmed: true to receive the handoff brief.',
        });
      }
      return ok(
        {
          ...packet,
          brief: briefMeta(result.brief),
          next: 'The handoff brief follows. Read it, state your understanding and next step before changing anything, and call complete_handoff when the handoff is done.',
        },
        result.brief.text,
      );
    },
    { session: ref },
  );
}

export interface BriefArgs extends SessionArgs {
  target?: BriefTarget;
  format?: 'md' | 'delimit' | 'govzero' | 'envelope';
  budget?: number;
}

export function generateBrief(core: McpCore, args: BriefArgs): Promise<CallToolResult> {
  const ref = pickSession(args);
  if (!ref) return Promise.resolve(fail(MISSING_SESSION));
  return guarded(
    async () => {
      const brief = await core.api.generateBrief(
        parseApiInput('generateBrief', { session: ref, target: args.target, format: args.format, budget: args.budget }),
      );
      return { content: [{ type: 'text', text: brief.text }, { type: 'text', text: JSON.stringify(briefMeta(brief), null, 2) }] };
    },
    { session: ref },
  );
}

export function completeHandoff(core: McpCore, args: SessionArgs & { checkpoint_id?: string }): Promise<CallToolResult> {
  const ref = pickSession(args);
  if (!ref && !args.checkpoint_id) {
    return Promise.resolve(fail('Say which handoff to complete: pass `session` (the session you restored) or `checkpoint_id` (from restore_session).'));
  }
  return guarded(
    async () => {
      const cp = await core.api.completeHandoff(parseApiInput('completeHandoff', { session: ref, checkpointId: args.checkpoint_id }));
      return ok({ ...checkpointView(cp), next: 'Handoff marked completed.' });
    },
    { session: ref },
  );
}
