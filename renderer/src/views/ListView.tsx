/** The popover's main view: search, filters and the virtualized session list. */
import { useShallow } from 'zustand/react/shallow';
import { AGENT_LABELS, AGENTS, isAgentId, type AgentId, type SourceStatus } from '../../../shared/model.js';
import { EmptyState } from '../components/EmptyState.js';
import { SessionList } from '../components/SessionList.js';
import { SEARCH_INPUT_ID } from '../lib/focus.js';
import { MOD_LABEL } from '../lib/platform.js';
import { projectOptions } from '../../../shared/project-labels.js';
import { useMemo } from 'react';
import { useApp, useAppStore } from '../store/context.js';

export function ListView() {
  return (
    <section className="list-view" aria-label="Sessions">
      <SearchBar />
      <Filters />
      <ListBody />
      <footer className="hints" aria-label="Keyboard shortcuts">
        <kbd>↑</kbd>
        <kbd>↓</kbd> select <kbd>↵</kbd> preview <kbd>{MOD_LABEL}+C</kbd> copy brief <kbd>esc</kbd> clear <kbd>{MOD_LABEL}+,</kbd> settings
      </footer>
    </section>
  );
}

function SearchBar() {
  const store = useAppStore();
  const { query, rows, cursor, pending } = useApp(
    useShallow((s) => ({ query: s.query, rows: s.rows, cursor: s.cursor, pending: s.searchPending })),
  );
  const active = rows[cursor];
  return (
    <div className="search">
      <svg className="search-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <input
        id={SEARCH_INPUT_ID}
        type="text"
        role="combobox"
        aria-label="Search sessions"
        aria-controls="session-list"
        aria-expanded="true"
        aria-autocomplete="list"
        aria-activedescendant={active ? `row-${cssId(active.id)}` : undefined}
        placeholder="Search sessions — try agent:codex, project:demo, branch:main"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        value={query}
        onChange={(e) => store.getState().setQuery(e.target.value)}
      />
      {pending && <span className="spinner" aria-label="Searching" />}
    </div>
  );
}

function Filters() {
  const store = useAppStore();
  const { agent, project, sessions, total, rows, hits } = useApp(
    useShallow((s) => ({
      agent: s.filterAgent,
      project: s.filterProject,
      sessions: s.sessions,
      total: s.sessionsTotal,
      rows: s.rows.length,
      hits: s.hits,
    })),
  );
  const projects = useMemo(() => projectOptions(sessions.map((s) => s.cwd)).slice(0, 100), [sessions]);
  return (
    <div className="filters">
      <label>
        <span className="visually-hidden">Agent</span>
        <select
          aria-label="Filter by agent"
          value={agent ?? ''}
          onChange={(e) => store.getState().setFilterAgent(isAgentId(e.target.value) ? e.target.value : null)}
        >
          <option value="">All agents</option>
          {AGENTS.map((a) => (
            <option key={a} value={a}>
              {AGENT_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Project</span>
        <select
          aria-label="Filter by project"
          value={project ?? ''}
          onChange={(e) => store.getState().setFilterProject(e.target.value || null)}
        >
          <option value="">All projects</option>
          {project && !projects.some((p) => p.cwd === project) && <option value={project}>{project}</option>}
          {projects.map((p) => (
            <option key={p.cwd} value={p.cwd} title={p.cwd}>
              {p.name} ({p.count})
            </option>
          ))}
        </select>
      </label>
      <span className="count" aria-live="polite">
        {hits === null ? `${total.toLocaleString()} session${total === 1 ? '' : 's'}` : `${rows.toLocaleString()} matching`}
      </span>
    </div>
  );
}

function ListBody() {
  const store = useAppStore();
  const s = useApp(
    useShallow((st) => ({
      loaded: st.sessionsLoaded,
      rows: st.rows.length,
      error: st.listError,
      searchError: st.searchError,
      query: st.query,
      hits: st.hits,
      sources: st.sources,
      agent: st.filterAgent,
      progress: st.progress,
    })),
  );
  if (s.error) {
    return (
      <EmptyState title="Could not load sessions">
        <p className="error-text">{s.error}</p>
        <button type="button" onClick={() => void store.getState().loadSessions()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  if (s.searchError) {
    return (
      <EmptyState title="That search did not work">
        <p className="error-text">{s.searchError}</p>
        <p>Search words match transcript text; filters are <code>agent:</code>, <code>project:</code>, <code>branch:</code>, <code>after:</code>, <code>before:</code>.</p>
      </EmptyState>
    );
  }
  if (!s.loaded) return <div className="loading" aria-busy="true">Loading sessions…</div>;
  if (s.rows === 0) {
    if (s.hits !== null) {
      return (
        <EmptyState title={`No sessions match “${s.query.trim()}”`}>
          <p>Try fewer words, or clear the search with <kbd>esc</kbd>.</p>
        </EmptyState>
      );
    }
    const indexing = s.progress?.phase === 'scanning' || s.progress?.phase === 'indexing';
    if (indexing) return <EmptyState title="Indexing your sessions…"><p>They appear here as soon as they are read.</p></EmptyState>;
    return <NoSessions agent={s.agent} sources={s.sources} />;
  }
  return <SessionList />;
}

function NoSessions({ agent, sources }: { agent: AgentId | null; sources: SourceStatus[] }) {
  const store = useAppStore();
  const relevant = agent ? sources.filter((src) => src.agent === agent) : sources;
  const found = relevant.filter((src) => src.state === 'ok');
  const title = agent ? `No ${AGENT_LABELS[agent]} sessions` : found.length === 0 ? 'No agent store found' : 'No sessions yet';
  return (
    <EmptyState title={title}>
      {relevant.length > 0 && (
        <ul className="source-reasons">
          {relevant.map((src) => (
            <li key={`${src.host ?? ''}/${src.agent}`}>
              <strong>
                {AGENT_LABELS[src.agent]}
                {src.host ? ` on ${src.host}` : ''}
              </strong>
              : {sourceReason(src)}
            </li>
          ))}
        </ul>
      )}
      <p>Point Baton at the folders where your agents keep their sessions.</p>
      <button type="button" className="primary" onClick={() => store.getState().setView('settings')}>
        Open Settings
      </button>
    </EmptyState>
  );
}

export function sourceReason(src: SourceStatus): string {
  const where = src.roots.length ? `${src.roots[0]}${src.roots.length > 1 ? ` (+${src.roots.length - 1} more)` : ''}` : 'no location configured';
  switch (src.state) {
    case 'disabled':
      return 'turned off in Settings';
    case 'not_found':
      return `no store found at ${where}`;
    case 'unreadable':
      return `cannot read ${where}${src.lastError ? ` — ${src.lastError}` : ''}`;
    case 'ok':
      return src.sessions === 0
        ? `no sessions in ${where}${src.lastError ? ` — ${src.lastError}` : ''}`
        : `${src.sessions.toLocaleString()} sessions in ${where}`;
  }
}

export function cssId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_');
}
