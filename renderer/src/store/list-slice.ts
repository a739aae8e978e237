/**
 * The session list: pages of sessions (a small first page for a fast first paint, then the rest
 * in the background), search-as-you-type with stale responses dropped, filters and the cursor.
 */
import type { SessionSummary } from '../../../shared/api-types.js';
import type { AgentId } from '../../../shared/model.js';
import { clampCursor } from '../lib/keyboard.js';
import { markTiming } from '../lib/timing.js';
import { messageOf, isUnauthorized } from './errors.js';
import { rowsFromHits, rowsFromSessions } from './rows.js';
import type { AppState, ListSlice, SliceCreator } from './types.js';

/** Session pages are loaded until this many; beyond it, search is the way in. */
const MAX_LISTED = 20_000;

export const createListSlice: SliceCreator<ListSlice> = (set, get, deps) => {
  const firstPage = deps.firstPage ?? 200;
  const pageSize = deps.pageSize ?? 1000;
  let listGeneration = 0;
  /** Bumped when the search is cleared, so a late response cannot bring results back. */
  let searchGeneration = 0;
  let searchInFlight = false;
  let searchAgain = false;
  /** The query and agent filter of the results shown now (null: none shown). */
  let shownSearch: { query: string; agent: AgentId | null } | null = null;
  /** Arrow keys pressed while a search runs: applied to its results, not to the rows it replaces. */
  let queuedMove = 0;

  const applyQueuedMove = (): void => {
    if (queuedMove === 0) return;
    const delta = queuedMove;
    queuedMove = 0;
    get().setCursor(get().cursor + delta);
  };

  /** Rows follow sessions, hits and filters; the cursor stays on the same session when it can. */
  const recompute = (patch: Partial<AppState>, opts: { top?: boolean } = {}): Partial<AppState> => {
    const state = { ...get(), ...patch };
    const rows =
      state.hits === null
        ? rowsFromSessions(state.sessions)
        : rowsFromHits(state.hits, state.sessionsById, {
            agent: state.filterAgent ?? undefined,
            project: state.filterProject ?? undefined,
          });
    // New search results start at the top; otherwise the user's pick survives reloads, even when
    // a smaller first page does not contain it yet.
    const top = opts.top ?? patch.hits !== undefined;
    const selectedId = top ? (rows[0]?.id ?? null) : state.selectedId;
    const kept = selectedId ? rows.findIndex((r) => r.id === selectedId) : -1;
    const cursor = clampCursor(kept >= 0 ? kept : 0, rows.length);
    return { ...patch, rows, cursor, selectedId };
  };

  /**
   * Search as you type without a debounce: one request at a time, and keystrokes that arrive
   * while it runs fold into one follow-up with the latest text. Latency stays one round trip.
   */
  const runSearch = async (): Promise<void> => {
    if (searchInFlight) {
      searchAgain = true;
      return;
    }
    searchInFlight = true;
    searchAgain = false;
    const generation = searchGeneration;
    const { query, filterAgent } = get();
    const started = performance.now();
    let patch: Partial<AppState>;
    try {
      const hits = await deps.client.search({ query, agent: filterAgent ?? undefined, limit: 200 });
      patch = { hits, searchPending: false, searchError: null };
    } catch (err) {
      patch = { hits: [], searchPending: false, searchError: messageOf(err) };
    } finally {
      searchInFlight = false;
    }
    const current = get();
    const stale = searchAgain || generation !== searchGeneration || current.query !== query || current.filterAgent !== filterAgent;
    if (!stale) {
      // The same search run again (its sessions changed in the background) keeps the user's pick;
      // results of a new query or filter start at the top.
      const again = shownSearch !== null && shownSearch.query === query && shownSearch.agent === filterAgent && current.hits !== null;
      shownSearch = { query, agent: filterAgent };
      set(recompute(patch, { top: !again }));
      markTiming('baton:search', { start: started, detail: { query } });
      applyQueuedMove();
    }
    if (searchAgain) void runSearch();
  };

  return {
    sessions: [],
    sessionsById: new Map(),
    sessionsTotal: 0,
    sessionsLoaded: false,
    sessionsLoading: false,
    listError: null,
    filterAgent: null,
    filterProject: null,
    query: '',
    hits: null,
    searchPending: false,
    searchError: null,
    rows: [],
    cursor: -1,
    selectedId: null,

    async loadSessions() {
      const generation = ++listGeneration;
      const { filterAgent, filterProject } = get();
      const filters = { agent: filterAgent ?? undefined, project: filterProject ?? undefined };
      set({ sessionsLoading: true });
      const collected: SessionSummary[] = [];
      try {
        let total = Infinity;
        while (collected.length < Math.min(total, MAX_LISTED)) {
          const limit = collected.length === 0 ? firstPage : pageSize;
          const page = await deps.client.listSessions({ ...filters, limit, offset: collected.length });
          if (generation !== listGeneration) return;
          collected.push(...page.sessions);
          total = page.total;
          const sessions = collected.slice();
          set(
            recompute({
              sessions,
              sessionsById: new Map(sessions.map((s) => [s.id, s])),
              sessionsTotal: page.total,
              sessionsLoaded: true,
              listError: null,
            }),
          );
          if (page.sessions.length < limit) break;
        }
      } catch (err) {
        if (generation !== listGeneration) return;
        if (!isUnauthorized(err)) set({ listError: messageOf(err), sessionsLoaded: true });
      } finally {
        if (generation === listGeneration) {
          set({ sessionsLoading: false });
          markTiming('baton:sessions-loaded', { detail: { count: get().sessions.length } });
        }
      }
      // A search in progress is re-run so its rows pick up the fresh session details.
      if (get().query.trim() && generation === listGeneration) void runSearch();
    },

    setQuery(query) {
      if (!query.trim()) {
        searchGeneration++;
        searchAgain = false;
        shownSearch = null;
        set(recompute({ query, hits: null, searchPending: false, searchError: null }));
        applyQueuedMove();
        return;
      }
      set({ query, searchPending: true });
      void runSearch();
    },

    setFilterAgent(agent) {
      set({ filterAgent: agent });
      void get().loadSessions();
      if (get().query.trim()) void runSearch();
    },

    setFilterProject(project) {
      set({ filterProject: project });
      void get().loadSessions();
      if (get().query.trim()) set(recompute({}));
    },

    moveCursor(delta) {
      if (get().searchPending) queuedMove += delta;
      else get().setCursor(get().cursor + delta);
    },

    setCursor(index) {
      const cursor = clampCursor(index, get().rows.length);
      set({ cursor, selectedId: get().rows[cursor]?.id ?? null });
    },
  };
};
