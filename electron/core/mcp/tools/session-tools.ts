/** list_sessions, search_session, search_all_sessions: read-only views over the index. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseApiInput } from '../../../../shared/contract.js';
import type { SearchHit, SessionSummary } from '../../../../shared/api-types.js';
import type { AgentId } from '../../../../shared/model.js';
import type { McpCore } from '../mcp-core.js';
import { guarded, MISSING_SESSION, fail, ok, pickSession } from './tool-result.js';

const DEFAULT_LIMIT = 20;

export function sessionView(s: SessionSummary) {
  return {
    id: s.id,
    agent: s.agent,
    title: s.title ?? (s.firstPrompt ? s.firstPrompt.slice(0, 120) : null),
    cwd: s.cwd,
    git_branch: s.gitBranch,
    updated_at: s.updatedAt,
    started_at: s.startedAt,
    messages: s.messageCount,
    user_turns: s.userTurns,
    latest_checkpoint_at: s.latestCheckpointAt,
    staleness: s.staleness,
  };
}

/**
 * Said beside a list or search answered while Baton's first index pass still runs: an agent would
 * otherwise take a missing session for one that does not exist. Nothing when the index is current.
 */
async function partialIndexNotice(core: McpCore): Promise<{ index_note?: string }> {
  const { index } = await core.api.health({});
  if (index.currentAt !== null) return {};
  return { index_note: `Baton is still building its index (${index.sessions} sessions so far): sessions and matches it has not reached yet are missing. Call again in a moment for the rest.` };
}

function hitView(h: SearchHit) {
  return { session: h.sessionId, title: h.title, cwd: h.cwd, seq: h.seq, role: h.role, timestamp: h.timestamp, snippet: h.snippet };
}

export function listSessions(core: McpCore, args: { agent?: AgentId; project?: string; limit?: number }): Promise<CallToolResult> {
  return guarded(async () => {
    const input = parseApiInput('listSessions', { agent: args.agent, project: args.project, limit: args.limit ?? DEFAULT_LIMIT });
    const [page, notice] = await Promise.all([core.api.listSessions(input), partialIndexNotice(core)]);
    return ok({
      total: page.total,
      sessions: page.sessions.map(sessionView),
      hint: page.sessions.length ? 'Pass an id as `session` to generate_brief, restore_session, checkpoint_session or search_session.' : 'No sessions match these filters.',
      ...notice,
    });
  });
}

export function searchAllSessions(core: McpCore, args: { query: string; agent?: AgentId; limit?: number }): Promise<CallToolResult> {
  return guarded(async () => {
    const input = parseApiInput('search', { query: args.query, agent: args.agent, limit: args.limit ?? DEFAULT_LIMIT });
    const [hits, notice] = await Promise.all([core.api.search(input), partialIndexNotice(core)]);
    return ok({ query: args.query, hits: hits.map(hitView), note: 'Matches are wrapped in [[ and ]].', ...notice });
  });
}

export function searchSession(
  core: McpCore,
  args: { session?: string; session_id?: string; title?: string; query: string; limit?: number },
): Promise<CallToolResult> {
  const ref = pickSession(args);
  if (!ref) return Promise.resolve(fail(MISSING_SESSION));
  return guarded(
    async () => {
      const session = await core.api.getSession(parseApiInput('getSession', { session: ref }));
      const limit = args.limit ?? DEFAULT_LIMIT;
      const hits = await core.api.search(parseApiInput('search', { query: args.query, session: session.id, limit }));
      // The index filters by session; the check here keeps the tool's promise even if it did not.
      const own = hits.filter((h) => h.sessionId === session.id).slice(0, limit);
      return ok({ session: session.id, title: session.title, query: args.query, hits: own.map(hitView), note: 'Matches are wrapped in [[ and ]].' });
    },
    { session: ref },
  );
}
