/** Settings → Machines: SSH hosts whose agent sessions Baton reads too; add, switch on/off, test, remove. */
import { useState } from 'react';
import type { MachineTestResult } from '../../../shared/api-types.js';
import { machineLabel } from '../../../shared/machines.js';
import { AGENT_LABELS, AGENTS, type AgentId } from '../../../shared/model.js';
import { MachineSettingsSchema, type MachineSettings } from '../../../shared/settings.js';
import { messageOf } from '../store/errors.js';
import { useApp, useAppStore } from '../store/context.js';

export function MachinesSection({ machines, onChange }: { machines: MachineSettings[]; onChange: (machines: MachineSettings[]) => Promise<boolean> }) {
  const store = useAppStore();
  const sources = useApp((s) => s.sources);
  const [destination, setDestination] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, MachineTestResult | { error: string } | 'testing'>>({});

  const add = async () => {
    const parsed = MachineSettingsSchema.safeParse({ destination: destination.trim() });
    if (!parsed.success) {
      setAddError(parsed.error.issues[0]?.message ?? 'not a valid destination');
      return;
    }
    const label = machineLabel(parsed.data);
    if (machines.some((m) => machineLabel(m) === label)) {
      setAddError(`${label} is already in the list`);
      return;
    }
    setAddError(null);
    if (await onChange([...machines, parsed.data])) {
      setDestination('');
      void test(label);
    }
  };
  const test = async (label: string) => {
    setTests((t) => ({ ...t, [label]: 'testing' }));
    try {
      const result = await store.getState().client.testMachine({ machine: label });
      setTests((t) => ({ ...t, [label]: result }));
    } catch (err) {
      setTests((t) => ({ ...t, [label]: { error: messageOf(err) } }));
    }
  };
  const replace = (label: string, next: MachineSettings | null) =>
    onChange(machines.flatMap((m) => (machineLabel(m) === label ? (next ? [next] : []) : [m])));

  return (
    <fieldset>
      <legend>Machines</legend>
      <p className="muted small-print">
        Sessions of agents on other machines, read over your own <code>ssh</code> (an alias from <code>~/.ssh/config</code> or{' '}
        <code>user@host[:port]</code>, key login). Baton must be installed there.
      </p>
      <ul className="machines">
        {machines.map((m) => {
          const label = machineLabel(m);
          const t = tests[label];
          // What the index last saw of this host (e.g. "host offline since …"), until a Test says more.
          const indexed = sources.find((s) => s.host === label && s.lastError);
          return (
            <li key={label} className="machine" aria-label={`Machine ${label}`}>
              <span className="setting-label">
                <strong>{label}</strong> <span className="muted">{m.destination}</span>
              </span>
              <span className="setting-control">
                <input
                  type="checkbox"
                  role="switch"
                  className="switch"
                  aria-label={`Read ${label}`}
                  checked={m.enabled}
                  onChange={(e) => void replace(label, { ...m, enabled: e.target.checked })}
                />
                <button type="button" className="small" disabled={t === 'testing'} onClick={() => void test(label)}>
                  Test
                </button>
                <button type="button" className="small danger" onClick={() => void replace(label, null)}>
                  Remove
                </button>
              </span>
              <AgentPicker label={label} agents={m.agents} onChange={(agents) => void replace(label, { ...m, agents })} />
              {!t && indexed && (
                <p className="machine-status" role="status" data-ok="false">
                  {indexed.lastError}
                </p>
              )}
              {t && (
                <p className="machine-status" role="status" data-ok={t !== 'testing' && !('error' in t && t.error) ? 'true' : 'false'}>
                  {t === 'testing' ? 'Connecting…' : describe(t)}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <div className="setting">
        <label htmlFor="set-machine">Add a machine</label>
        <span className="setting-control">
          <input
            id="set-machine"
            type="text"
            placeholder="devbox or me@host:22"
            spellCheck={false}
            value={destination}
            aria-invalid={addError !== null}
            onChange={(e) => setDestination(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && void add()}
          />
          <button type="button" className="small" disabled={!destination.trim()} onClick={() => void add()}>
            Add
          </button>
          {addError && <span className="field-error">{addError}</span>}
        </span>
      </div>
    </fieldset>
  );
}

/** Which agents to read on a machine; all checked = every agent (stored as null, so new ones come too). */
function AgentPicker({ label, agents, onChange }: { label: string; agents: AgentId[] | null; onChange: (agents: AgentId[] | null) => void }) {
  const chosen = new Set(agents ?? AGENTS);
  const toggle = (agent: AgentId, on: boolean) => {
    const next = AGENTS.filter((a) => (a === agent ? on : chosen.has(a)));
    onChange(next.length === AGENTS.length ? null : next);
  };
  return (
    <span className="machine-agents" role="group" aria-label={`Agents read on ${label}`}>
      {AGENTS.map((agent) => (
        <label key={agent}>
          <input type="checkbox" checked={chosen.has(agent)} onChange={(e) => toggle(agent, e.target.checked)} /> {AGENT_LABELS[agent]}
        </label>
      ))}
    </span>
  );
}

function describe(t: MachineTestResult | { error: string }): string {
  if (!('ok' in t)) return t.error;
  if (!t.ok) return t.error ?? 'not reachable';
  const agents = t.agents.map((a) => `${AGENT_LABELS[a.agent]} ${a.sessions}`).join(', ') || 'no agents';
  return `Reachable · Baton ${t.version} (${t.platform}) · ${agents} sessions`;
}
