/** MCP endpoint: URL, port, token (reveal, copy, regenerate) and one-click install per agent. */
import { useState } from 'react';
import type { McpInstallResult } from '../../../shared/api-types.js';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';
import { useDraft } from '../hooks/use-draft.js';
import { messageOf } from '../store/errors.js';
import { useApp, useAppStore } from '../store/context.js';
import { CopyField } from './CopyField.js';

export function McpSection({ port, onPort }: { port: number; onPort: (port: number) => Promise<boolean> }) {
  const store = useAppStore();
  const mcp = useApp((s) => s.mcp);
  const mcpError = useApp((s) => s.mcpError);
  const [portText, setPortText] = useDraft(String(port));
  const [results, setResults] = useState<Partial<Record<AgentId, McpInstallResult | { error: string }>>>({});
  const [busy, setBusy] = useState<AgentId | 'all' | null>(null);

  const portNumber = Number(portText);
  const portValid = Number.isInteger(portNumber) && portNumber >= 1024 && portNumber <= 65535;
  const commitPort = () => {
    if (portValid && portNumber !== port) void onPort(portNumber).then(() => store.getState().loadMcp());
  };

  const install = async (agent: AgentId | 'all') => {
    setBusy(agent);
    try {
      const list = await store.getState().client.installMcp({ agent });
      setResults((prev) => ({ ...prev, ...Object.fromEntries(list.map((r) => [r.agent, r])) }));
    } catch (err) {
      const targets = agent === 'all' ? AGENTS : [agent];
      setResults((prev) => ({ ...prev, ...Object.fromEntries(targets.map((a) => [a, { error: messageOf(err) }])) }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <fieldset>
      <legend>MCP endpoint</legend>
      {mcpError && <p className="error-text">MCP info unavailable: {mcpError}</p>}
      {mcp && (
        <>
          <div className="setting">
            <span className="setting-label">URL</span>
            <CopyField label="MCP URL" value={mcp.url} />
          </div>
          <div className="setting">
            <span className="setting-label">Token</span>
            <span className="setting-control">
              <CopyField label="MCP token" value={mcp.token} secret />
              <button
                type="button"
                className="small danger"
                onClick={() => {
                  if (window.confirm('Replace the token? Agents set up with the old one stop working until reinstalled.')) void store.getState().regenerateToken();
                }}
              >
                Regenerate
              </button>
            </span>
          </div>
        </>
      )}
      <div className="setting">
        <label htmlFor="set-port">Port</label>
        <span className="setting-control">
          <input
            id="set-port"
            type="number"
            min={1024}
            max={65535}
            value={portText}
            aria-invalid={!portValid}
            onChange={(e) => setPortText(e.target.value)}
            onBlur={commitPort}
            onKeyDown={(e) => e.key === 'Enter' && commitPort()}
          />
          {!portValid && <span className="field-error">1024–65535</span>}
        </span>
      </div>
      <div className="install">
        <span className="setting-label">Install in</span>
        <div className="install-buttons">
          {AGENTS.map((agent) => (
            <button key={agent} type="button" className="small" disabled={busy !== null} onClick={() => void install(agent)}>
              {AGENT_LABELS[agent]}
            </button>
          ))}
          <button type="button" className="small" disabled={busy !== null} onClick={() => void install('all')}>
            All
          </button>
        </div>
      </div>
      {Object.keys(results).length > 0 && (
        <ul className="install-results" aria-live="polite">
          {AGENTS.filter((a) => results[a]).map((agent) => {
            const r = results[agent];
            if (!r) return null;
            return (
              <li key={agent} data-ok={'error' in r ? 'false' : 'true'}>
                <strong>{AGENT_LABELS[agent]}</strong>: {'error' in r ? r.error : `${r.message}${r.backup ? ` (backup: ${r.backup})` : ''}`}
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
