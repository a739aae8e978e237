/**
 * Baton's hooks per agent (Claude Code, Codex, Hermes, Gemini CLI, Qwen Code), next to the MCP
 * registration: whether they are installed, what the agent still needs (Codex's /hooks trust,
 * Hermes' approval, what cannot be done), and install / remove buttons. The hooks hand a pending handoff to the next session.
 */
import { useEffect, useState } from 'react';
import type { AgentHooksStatus } from '../../../shared/api-types.js';
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import { messageOf } from '../store/errors.js';
import { useAppStore } from '../store/context.js';

export function HooksSection() {
  const store = useAppStore();
  const [statuses, setStatuses] = useState<AgentHooksStatus[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<AgentId | null>(null);

  const load = () =>
    store
      .getState()
      .client.hooksStatus({ agent: 'all' })
      .then(setStatuses, (err: unknown) => setMessage(`Hook status unavailable: ${messageOf(err)}`));
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = async (agent: AgentId, uninstall: boolean) => {
    setBusy(agent);
    try {
      const [result] = await store.getState().client.installHooks({ agent, uninstall });
      setMessage(result ? `${AGENT_LABELS[agent]}: ${result.message}` : null);
    } catch (err) {
      setMessage(`${AGENT_LABELS[agent]}: ${messageOf(err)}`);
    } finally {
      setBusy(null);
      void load();
    }
  };

  return (
    <fieldset>
      <legend>Hooks (handoffs arrive by themselves)</legend>
      {statuses?.map((s) => (
        <div className="setting hooks-row" key={s.agent} data-testid={`hooks-${s.agent}`}>
          <span className="setting-label">{AGENT_LABELS[s.agent]}</span>
          <span className="setting-control">
            <span data-installed={s.installed}>{s.installed ? 'Installed' : 'Not installed'}</span>
            <button type="button" className="small" disabled={busy !== null} onClick={() => void change(s.agent, s.installed)}>
              {s.installed ? 'Remove' : 'Install'}
            </button>
          </span>
          {s.notes.length > 0 && (
            <ul className="hooks-notes">
              {s.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {message && (
        <p className="install-results" aria-live="polite">
          {message}
        </p>
      )}
    </fieldset>
  );
}
