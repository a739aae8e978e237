/** Brief preview of one session: goal, target/format pickers, the brief, and what to do with it. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { AGENT_LABELS, AGENTS, isAgentId } from '../../../shared/model.js';
import type { BriefFormat } from '../../../shared/api-types.js';
import { AgentBadge } from '../components/AgentBadge.js';
import { CheckpointForm } from '../components/CheckpointForm.js';
import { CopyField } from '../components/CopyField.js';
import { HandoffStatus } from '../components/HandoffStatus.js';
import { RestorePanel } from '../components/RestorePanel.js';
import { TargetPicker } from '../components/TargetPicker.js';
import { UsagePanel } from '../components/UsagePanel.js';
import { focusSearch } from '../lib/focus.js';
import { renderMarkdown } from '../lib/markdown.js';
import { featuredTargets } from '../lib/featured-targets.js';
import { openTarget } from '../lib/open-target.js';
import { TARGET_LABELS } from '../lib/target-labels.js';
import { MOD_LABEL } from '../lib/platform.js';
import { projectName } from '../../../shared/project-labels.js';
import { fullTime, relativeTime } from '../../../shared/time-labels.js';
import { useApp, useAppStore } from '../store/context.js';
import { rowTitle } from '../store/rows.js';
import { BRIEF_FORMATS, FORMAT_LABELS } from '../store/types.js';

/** Option values of the split menu that continue the session natively instead of choosing where to open it. */
const CONTINUE_PREFIX = 'continue:';

export function PreviewView() {
  const store = useAppStore();
  const p = useApp(
    useShallow((s) => ({
      id: s.previewId,
      session: s.previewSession,
      target: s.target,
      format: s.format,
      brief: s.brief,
      loading: s.briefLoading,
      error: s.briefError,
      raw: s.raw,
      revealed: s.revealed,
      copyStatus: s.copyStatus,
      openAgent: s.openAgent,
      openResult: s.openResult,
      handoffs: s.handoffs,
    })),
  );
  const sources = useApp((s) => s.sources);
  const defaultTarget = useApp((s) => s.settingsView?.settings.defaultTarget);
  const featured = useMemo(() => featuredTargets({ sources, defaultTarget }), [sources, defaultTarget]);
  const [panel, setPanel] = useState<'none' | 'checkpoint'>('none');
  const rootRef = useRef<HTMLElement>(null);

  // Keys like c, t, f need focus off the (now hidden) search box.
  useEffect(() => {
    rootRef.current?.focus();
  }, [p.id]);

  const html = useMemo(() => (p.brief && !p.raw && p.brief.format === 'md' ? renderMarkdown(p.brief.text) : null), [p.brief, p.raw]);
  const agentForOpen = openTarget(p.target, p.session?.agent, p.openAgent);

  if (!p.id) return null;
  const session = p.session;
  const title = session ? rowTitle(session) : p.id;
  const redactions = p.brief ? Object.values(p.brief.redactions).reduce((a, b) => a + b, 0) : 0;
  // A masked goal counts too: the API masks it even when brief redaction is off in Settings.
  const canReveal = p.revealed || redactions > 0 || (session?.firstPrompt ?? '').includes('[REDACTED:');
  const back = () => {
    store.getState().closePreview();
    requestAnimationFrame(focusSearch);
  };

  return (
    <section className="preview" aria-label="Brief preview" tabIndex={-1} ref={rootRef}>
      <div className="preview-head">
        <button type="button" className="back" onClick={back} aria-label="Back to sessions" title="Back (esc)">
          ‹
        </button>
        {session && <AgentBadge agent={session.agent} />}
        <h2 className="preview-title" title={title}>
          {title}
        </h2>
      </div>
      {session && (
        <div className="preview-meta">
          <span title={session.cwd ?? undefined}>{projectName(session.cwd)}</span>
          {session.gitBranch && (
            <span className="row-branch" title={session.gitBranch}>
              {session.gitBranch}
            </span>
          )}
          <span title={fullTime(session.updatedAt)}>{relativeTime(session.updatedAt ?? session.startedAt)}</span>
          <span>{session.messageCount} messages</span>
          {session.model && (
            <span className="preview-model" title={session.model}>
              {session.model}
            </span>
          )}
          {session.parentId && (
            <span title={session.parentId}>
              {session.agent === 'pi' ? 'forked from' : 'parent'} {session.parentId.slice(session.parentId.indexOf(':') + 1, session.parentId.indexOf(':') + 9)}
            </span>
          )}
        </div>
      )}
      {session?.firstPrompt && (
        // One line until opened (click or Enter): the brief below repeats the goal and needs the height.
        <details className="goal">
          <summary title={session.firstPrompt}>
            <h3>Goal</h3>
            <span className="goal-text" data-testid="goal">
              {session.firstPrompt}
            </span>
          </summary>
        </details>
      )}

      <div className="brief-controls">
        <TargetPicker featured={featured} value={p.target} onChange={(t) => store.getState().setTarget(t)} />
        <label className="inline-select">
          <span className="visually-hidden">Format</span>
          <select aria-label="Brief format" value={p.format} title="Format (f)" onChange={(e) => store.getState().setFormat(e.target.value as BriefFormat)}>
            {BRIEF_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        {p.format === 'md' && (
          <label className="toggle" title="Raw text (r)">
            <input type="checkbox" checked={p.raw} onChange={(e) => store.getState().setRaw(e.target.checked)} />
            Raw
          </label>
        )}
        {canReveal ? (
          // Only when there is something to reveal: the controls stay on one line at the popover's width.
          <label className="toggle" title={`Show the secrets Baton masks in this preview (only here; agents never get them). ${p.brief ? redactionTitle(p.brief.redactions, p.brief.redacted) : ''}`}>
            <input type="checkbox" aria-label="Reveal secrets" checked={p.revealed} onChange={(e) => store.getState().setRevealed(e.target.checked)} />
            Reveal{!p.revealed && <span data-testid="redaction-count"> {redactions}</span>}
          </label>
        ) : null}
        <span className="brief-stats" aria-live="polite">
          {p.brief && (
            <>
              <span data-testid="token-count" title={`Budget ${p.brief.budget.toLocaleString()} tokens`}>
                {p.brief.tokens.toLocaleString()} tokens
              </span>
              {!canReveal && (
                <span data-testid="redaction-count" title={redactionTitle(p.brief.redactions, p.brief.redacted)}>
                  {p.brief.redacted ? `${redactions} redacted` : 'redaction off'}
                </span>
              )}
            </>
          )}
        </span>
      </div>

      <div className="brief" tabIndex={0} aria-busy={p.loading} aria-label="Brief" role="region" data-format={p.format} data-target={p.target}>
        {p.error ? (
          <div className="error-text" role="alert">
            Could not build the brief: {p.error}
          </div>
        ) : !p.brief ? (
          <div className="loading">Preparing the brief…</div>
        ) : html !== null ? (
          <div className="markdown" data-testid="brief-text" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <pre className="raw" data-testid="brief-text">
            {p.brief.text}
          </pre>
        )}
        {p.loading && p.brief && <div className="brief-updating" aria-hidden="true" />}
      </div>

      <UsagePanel sessionId={p.id} />

      {panel === 'checkpoint' && <CheckpointForm onClose={() => { setPanel('none'); rootRef.current?.focus(); }} />}
      <RestorePanel />
      <HandoffStatus handoffs={p.handoffs} />
      {p.openResult && (
        <div className="open-result">
          <span>{p.openResult.launched ? 'Started with:' : `Not started${p.openResult.error ? ` (${p.openResult.error})` : ''}. Run it yourself:`}</span>
          <CopyField label="command" value={p.openResult.command} />
        </div>
      )}

      <div className="actions">
        {/* Never disabled while the brief loads: a click waits for it (and says so) instead of doing nothing. */}
        <button type="button" className="primary" aria-busy={p.copyStatus !== null} onClick={() => void store.getState().copyBrief()} title={`Copy (c or ${MOD_LABEL}+C)`}>
          Copy brief
        </button>
        <div className="split">
          {/* Short names keep the actions on two lines whatever the agent: the brief above never shrinks when the target changes. */}
          <button type="button" onClick={() => void store.getState().openInAgent()} title={`Open in ${AGENT_LABELS[agentForOpen]}, in a new terminal (o)`}>
            Open in {TARGET_LABELS[agentForOpen]}
          </button>
          {/* The select shows only a chevron: its own arrow is drawn in its text colour, which is transparent here. */}
          <span className="split-menu">
            {/* Picking an agent sets the target; picking "Continue in …" writes the session natively into that agent. */}
            <select
              aria-label="Agent to open, or continue in"
              value={agentForOpen}
              onChange={(e) => {
                const value = e.target.value;
                const continued = value.startsWith(CONTINUE_PREFIX) ? value.slice(CONTINUE_PREFIX.length) : null;
                if (continued !== null && isAgentId(continued)) void store.getState().continueIn(continued);
                else if (isAgentId(value)) store.getState().setOpenAgent(value);
              }}
            >
              <optgroup label="Open in">
                {AGENTS.map((a) => (
                  <option key={a} value={a}>
                    {AGENT_LABELS[a]}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Continue natively in">
                {AGENTS.map((a) => (
                  <option key={`continue-${a}`} value={`${CONTINUE_PREFIX}${a}`}>
                    Continue in {AGENT_LABELS[a]}
                  </option>
                ))}
              </optgroup>
            </select>
            <svg className="split-chevron" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
              <path d="M2 3.5 5 6.5 8 3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </span>
        </div>
        <button
          type="button"
          onClick={() => void store.getState().handOff(agentForOpen)}
          title={`Save a pending handoff: ${AGENT_LABELS[agentForOpen]}'s next session in this folder receives the brief by itself (its start-up hook)`}
        >
          Hand off to {TARGET_LABELS[agentForOpen]}
        </button>
        <span className="spacer" />
        <button type="button" onClick={() => setPanel(panel === 'checkpoint' ? 'none' : 'checkpoint')} aria-expanded={panel === 'checkpoint'}>
          Checkpoint…
        </button>
        <button type="button" onClick={() => void store.getState().startRestore()}>
          Restore…
        </button>
      </div>
    </section>
  );
}

function redactionTitle(redactions: Record<string, number>, redacted: boolean): string {
  if (!redacted) return 'Redaction is turned off in Settings';
  const kinds = Object.entries(redactions);
  return kinds.length ? kinds.map(([k, n]) => `${k}: ${n}`).join(', ') : 'No secrets found';
}
