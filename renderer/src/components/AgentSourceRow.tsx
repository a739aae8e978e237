/**
 * One agent's store: enabled switch, path (detected default as placeholder) with live validation
 * via checkPath, and what the index last found there. A folder picker exists only in Electron.
 */
import { useEffect, useState } from 'react';
import type { PathCheck } from '../../../shared/api-types.js';
import { AGENT_LABELS, type AgentId, type SourceProblem } from '../../../shared/model.js';
import { describeProblem } from '../../../shared/problems.js';
import type { AgentSourceSettings } from '../../../shared/settings.js';
import { useDraft } from '../hooks/use-draft.js';
import { messageOf } from '../store/errors.js';
import { useApp, useAppStore } from '../store/context.js';
import { sourceReason } from '../views/ListView.js';

const CHECK_DELAY_MS = 250;

export function AgentSourceRow({ agent, settings, detected }: { agent: AgentId; settings: AgentSourceSettings; detected: string[] }) {
  const store = useAppStore();
  const source = useApp((s) => s.sources.find((src) => src.agent === agent && !src.host) ?? null);
  const canBrowse = useApp((s) => s.desktopStatus?.mode === 'desktop');
  const [path, setPath] = useDraft(settings.path ?? '');
  const [check, setCheck] = useState<PathCheck | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);

  // Live validation of whatever is typed (or the detected default when empty).
  const effective = path.trim() || detected[0] || '';
  useEffect(() => {
    if (!effective) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      store
        .getState()
        .client.checkPath({ agent, path: effective })
        .then((result) => {
          if (!cancelled) {
            setCheck(result);
            setCheckError(null);
          }
        })
        .catch((err: unknown) => {
          if (!cancelled) setCheckError(messageOf(err));
        });
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [agent, effective, store]);

  const dirty = (path.trim() || null) !== settings.path;
  const commit = (value: string) => {
    const next = value.trim() || null;
    if (next !== settings.path) void store.getState().updateSettings({ agents: { [agent]: { path: next } } });
  };
  const apply = () => commit(path);
  // Desktop only: the system folder dialog; the chosen folder goes through the same edit flow.
  const browse = async () => {
    try {
      const picked = await store.getState().client.pickFolder({ title: `Choose the ${AGENT_LABELS[agent]} store folder`, defaultPath: effective || undefined });
      if (picked.path === null) return;
      setPath(picked.path);
      commit(picked.path);
    } catch (err) {
      store.getState().notify('error', `Could not open the folder picker: ${messageOf(err)}`);
    }
  };
  const id = `agent-${agent}`;
  // Diagnostics with a kind are among the remembered problems listed above them.
  const diagnostics = source?.diagnostics.filter((d) => !d.kind || d.kind === 'reread') ?? [];

  return (
    <div className="agent-source" data-agent={agent} aria-label={`${AGENT_LABELS[agent]} store`} role="group">
      <div className="agent-source-head">
        <label htmlFor={`${id}-enabled`} className="agent-name">
          {AGENT_LABELS[agent]}
        </label>
        <span className="agent-status" data-testid={`${agent}-status`}>
          {source ? sourceReason(source) : ''}
        </span>
        <input
          id={`${id}-enabled`}
          type="checkbox"
          role="switch"
          className="switch"
          aria-label={`Read ${AGENT_LABELS[agent]} sessions`}
          checked={settings.enabled}
          onChange={(e) => void store.getState().updateSettings({ agents: { [agent]: { enabled: e.target.checked } } })}
        />
      </div>
      <div className="path-row">
        <input
          id={`${id}-path`}
          type="text"
          aria-label={`${AGENT_LABELS[agent]} store path`}
          placeholder={detected[0] ? `${detected[0]} (detected)` : 'Path to the store'}
          value={path}
          spellCheck={false}
          disabled={!settings.enabled}
          onChange={(e) => setPath(e.target.value)}
          onBlur={apply}
          onKeyDown={(e) => {
            if (e.key === 'Enter') apply();
          }}
        />
        {canBrowse && (
          <button type="button" className="small" disabled={!settings.enabled} title={`Choose the ${AGENT_LABELS[agent]} store folder`} onClick={() => void browse()}>
            Browse…
          </button>
        )}
        {dirty && (
          <button type="button" className="small" onClick={apply}>
            Apply
          </button>
        )}
        {settings.path !== null && (
          <button
            type="button"
            className="small"
            onClick={() => {
              setPath('');
              void store.getState().updateSettings({ agents: { [agent]: { path: null } } });
            }}
          >
            Use default
          </button>
        )}
      </div>
      <PathStatus check={check && check.path === effective ? check : null} error={checkError} />
      {source && <SourceProblems problems={source.problems ?? []} />}
      {diagnostics.length > 0 && (
        <details className="diagnostics">
          <summary>
            {diagnostics.length} problem{diagnostics.length === 1 ? '' : 's'} reading this store
          </summary>
          <ul>
            {diagnostics.slice(-5).map((d, i) => (
              <li key={i}>
                <code>
                  {d.file}
                  {d.line ? `:${d.line}` : ''}
                </code>{' '}
                {d.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** Files of the store Baton could not read (wholly), as the index remembers them until they read. */
function SourceProblems({ problems }: { problems: SourceProblem[] }) {
  if (problems.length === 0) return null;
  const unread = problems.filter((p) => p.severity === 'error').length;
  return (
    <details className="diagnostics" data-testid="source-problems" open={unread > 0}>
      <summary>
        {unread > 0 ? `${unread} file${unread === 1 ? '' : 's'} not read (fully)` : `${problems.length} warning${problems.length === 1 ? '' : 's'}`}
      </summary>
      <ul>
        {problems.map((p) => (
          <li key={`${p.file}|${p.kind}`} data-severity={p.severity}>
            {describeProblem(p)}
          </li>
        ))}
      </ul>
    </details>
  );
}

function PathStatus({ check, error }: { check: PathCheck | null; error: string | null }) {
  if (error) return <p className="path-status" data-ok="false">Could not check this path: {error}</p>;
  if (!check) return null;
  const ok = check.exists && check.readable && check.sessions > 0;
  let text: string;
  if (!check.exists) text = 'Does not exist';
  else if (!check.readable) text = 'Exists but cannot be read';
  else text = `${check.sessions.toLocaleString()} session${check.sessions === 1 ? '' : 's'} found`;
  return (
    <p className="path-status" data-ok={ok} aria-live="polite">
      {text}
      {check.error ? ` — ${check.error}` : ''}
    </p>
  );
}
