/**
 * Unattended continuation per project folder: the folders switched on (the agents that carry on,
 * in order, and when), a switch to turn one off, a form to turn one on, and the last thing Baton
 * did. The same switch as `baton auto on|off`; stored in baton.db by the core.
 */
import { useEffect, useState } from 'react';
import type { AutoStatus, AutoTrigger } from '../../../shared/auto-continue.js';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';
import { messageOf } from '../store/errors.js';
import { useAppStore } from '../store/context.js';

export function AutoContinueSection() {
  const store = useAppStore();
  const [status, setStatus] = useState<AutoStatus | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [folder, setFolder] = useState('');
  const [first, setFirst] = useState<AgentId>('codex');
  const [then, setThen] = useState<AgentId | ''>('');
  const [context, setContext] = useState(false);
  const [busy, setBusy] = useState(false);
  const client = () => store.getState().client;

  const load = () => client().autoStatus({ limit: 1 }).then(setStatus, (err: unknown) => setMessage(`Unavailable: ${messageOf(err)}`));
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = async (input: Parameters<ReturnType<typeof client>['setAutoContinue']>[0]) => {
    setBusy(true);
    try {
      setStatus(await client().setAutoContinue(input));
      setMessage(null);
      return true;
    } catch (err) {
      setMessage(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const switchOn = async () => {
    const targets = then && then !== first ? [first, then] : [first];
    const when: AutoTrigger[] = context ? ['limit', 'context'] : ['limit'];
    if (await change({ folder: folder.trim(), on: true, targets, when })) setFolder('');
  };
  const browse = async () => {
    try {
      const picked = await client().pickFolder({ title: 'Choose the project folder' });
      if (picked.path !== null) setFolder(picked.path);
    } catch (err) {
      setMessage(`Could not open the folder picker: ${messageOf(err)}`);
    }
  };
  const last = status?.runs[0];

  return (
    <fieldset aria-label="Carry on by itself">
      <legend>Carry on by itself</legend>
      <p className="muted small-print">
        When a session in one of these folders hits its limit while Baton runs, Baton hands off and opens the next agent there (once per limit window).
      </p>
      {status?.rules.map((rule) => (
        <div className="setting auto-rule" key={rule.folder} data-testid="auto-rule">
          <span className="setting-label small-print">{rule.folder}</span>
          <span className="setting-control">
            <span>
              → {rule.targets.map((a) => AGENT_LABELS[a]).join(', then ')}
              {rule.when.includes('context') ? ' (also at the context alert)' : ''}
            </span>
            <button type="button" className="small" disabled={busy} onClick={() => void change({ folder: rule.folder, on: false })} aria-label={`Switch off ${rule.folder}`}>
              Switch off
            </button>
          </span>
        </div>
      ))}
      <div className="setting auto-add">
        <input
          id="auto-folder"
          aria-label="Project folder"
          placeholder="Project folder"
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
        />
        <button type="button" className="small" onClick={() => void browse()}>
          Choose…
        </button>
        <select aria-label="Agent that carries on" value={first} onChange={(e) => setFirst(e.target.value as AgentId)}>
          {AGENTS.map((a) => (
            <option key={a} value={a}>
              {AGENT_LABELS[a]}
            </option>
          ))}
        </select>
        <select aria-label="Then, if it is at its limit" value={then} onChange={(e) => setThen(e.target.value as AgentId | '')}>
          <option value="">then nobody</option>
          {AGENTS.filter((a) => a !== first).map((a) => (
            <option key={a} value={a}>
              then {AGENT_LABELS[a]}
            </option>
          ))}
        </select>
        <label className="auto-context">
          <input type="checkbox" checked={context} onChange={(e) => setContext(e.target.checked)} /> also at the context alert
        </label>
        <button type="button" className="small" disabled={busy || !folder.trim()} onClick={() => void switchOn()}>
          Switch on
        </button>
      </div>
      {last && <p className="muted small-print" data-testid="auto-last">Last: {last.message}</p>}
      {message && (
        <p className="install-results error-text" role="alert">
          {message}
        </p>
      )}
    </fieldset>
  );
}
