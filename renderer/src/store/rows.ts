/**
 * What the session list shows: one row per session, from the session page or from search hits
 * (grouped per session, best hit first), joined with what the list already knows about it.
 */
import type { SearchHit, SessionSummary, StalenessBand } from '../../../shared/api-types.js';
import type { AgentId } from '../../../shared/model.js';
import { nestSubagents } from '../../../shared/session-tree.js';

export interface SessionRow {
  id: string;
  agent: AgentId;
  title: string | null;
  firstPrompt: string | null;
  cwd: string | null;
  gitBranch: string | null;
  updatedAt: string | null;
  messageCount: number | null;
  staleness: StalenessBand | null;
  /** Best matching snippet when the list shows search results. */
  snippet: string | null;
  /** The snippet's message is on a branch the user left (pi's /tree). */
  snippetOtherBranch?: boolean;
  /** Matching messages in this session (search only). */
  matches: number;
  /** A subagent or fork of another session (parentId set). */
  subagent: boolean;
  /** How far it is indented under its parent in the list (0: top level or parent not listed). */
  depth: number;
}

export function rowFromSession(session: SessionSummary): SessionRow {
  return {
    id: session.id,
    agent: session.agent,
    title: session.title,
    firstPrompt: session.firstPrompt,
    cwd: session.cwd,
    gitBranch: session.gitBranch,
    updatedAt: session.updatedAt ?? session.startedAt,
    messageCount: session.messageCount,
    staleness: session.staleness,
    snippet: null,
    matches: 0,
    subagent: session.parentId !== null,
    depth: 0,
  };
}

/** The plain list (no search): subagents right under their parent, or marked where it is not listed. */
export function rowsFromSessions(sessions: readonly SessionSummary[]): SessionRow[] {
  return nestSubagents(sessions).map(({ session, depth }) => ({ ...rowFromSession(session), depth }));
}

export interface HitFilters {
  agent?: AgentId | undefined;
  /** Substring of the cwd, like listSessions' `project`. */
  project?: string | undefined;
}

/** Groups hits by session in rank order (hits arrive best first) and applies the list filters. */
export function rowsFromHits(
  hits: SearchHit[],
  known: ReadonlyMap<string, SessionSummary>,
  filters: HitFilters = {},
): SessionRow[] {
  const rows = new Map<string, SessionRow>();
  for (const hit of hits) {
    if (filters.agent && hit.agent !== filters.agent) continue;
    if (filters.project && !(hit.cwd ?? '').includes(filters.project)) continue;
    const existing = rows.get(hit.sessionId);
    if (existing) {
      existing.matches += 1;
      continue;
    }
    const session = known.get(hit.sessionId);
    rows.set(hit.sessionId, {
      ...(session
        ? rowFromSession(session)
        : {
            id: hit.sessionId,
            agent: hit.agent,
            title: hit.title,
            firstPrompt: null,
            cwd: hit.cwd,
            gitBranch: null,
            updatedAt: hit.timestamp,
            messageCount: null,
            staleness: null,
            subagent: false,
            depth: 0,
          }),
      snippet: hit.snippet,
      ...(hit.otherBranch ? { snippetOtherBranch: true } : {}),
      matches: 1,
    });
  }
  return [...rows.values()];
}

/** The row's headline: its title, else its first prompt (one line), else its id. */
export function rowTitle(row: Pick<SessionRow, 'title' | 'firstPrompt' | 'id'>): string {
  const text = row.title?.trim() || row.firstPrompt?.trim() || '';
  return text ? text.replace(/\s+/g, ' ') : row.id;
}
