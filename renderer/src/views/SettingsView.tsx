/** Settings: where each agent's sessions live, the hotkey, brief defaults, MCP, startup and theme. */
import { useShallow } from 'zustand/react/shallow';
import { AGENT_LABELS, AGENTS } from '../../../shared/model.js';
import { BRIEF_TARGETS, THEMES, type BriefTarget, type Settings } from '../../../shared/settings.js';
import { AgentSourceRow } from '../components/AgentSourceRow.js';
import { HotkeyRecorder } from '../components/HotkeyRecorder.js';
import { McpSection } from '../components/McpSection.js';
import { HooksSection } from '../components/HooksSection.js';
import { AutoContinueSection } from '../components/AutoContinueSection.js';
import { MachinesSection } from '../components/MachinesSection.js';
import { useDraft } from '../hooks/use-draft.js';
import { focusSearch } from '../lib/focus.js';
import { useApp, useAppStore } from '../store/context.js';

const TARGET_NAMES: Record<BriefTarget, string> = { generic: 'Generic (any agent)', ...AGENT_LABELS };

export function SettingsView() {
  const store = useAppStore();
  const { view, error } = useApp(useShallow((s) => ({ view: s.settingsView, error: s.settingsError })));
  if (!view) {
    return <div className="loading">{error ? <span className="error-text">Could not load settings: {error}</span> : 'Loading settings…'}</div>;
  }
  const settings = view.settings;
  const update = (patch: Parameters<ReturnType<typeof store.getState>['updateSettings']>[0]) => store.getState().updateSettings(patch);

  return (
    <section className="settings" aria-label="Settings">
      <div className="settings-head">
        <button
          type="button"
          className="back"
          aria-label="Back to sessions"
          title="Back (esc)"
          onClick={() => {
            store.getState().setView('list');
            requestAnimationFrame(focusSearch);
          }}
        >
          ‹
        </button>
        <h2>Settings</h2>
      </div>
      {view.warning && (
        <p className="warning" role="alert">
          {view.warning}
        </p>
      )}

      <fieldset>
        <legend>Agent stores</legend>
        {AGENTS.map((agent) => (
          <AgentSourceRow key={agent} agent={agent} settings={settings.agents[agent]} detected={view.detected[agent] ?? []} />
        ))}
      </fieldset>

      <fieldset>
        <legend>Handoff</legend>
        <div className="setting">
          <label htmlFor="set-hotkey">Global hotkey</label>
          <HotkeyRecorder id="set-hotkey" value={settings.hotkey} onChange={(hotkey) => void update({ hotkey })} />
        </div>
        <div className="setting">
          <label htmlFor="set-target">Default target agent</label>
          <select id="set-target" value={settings.defaultTarget} onChange={(e) => void update({ defaultTarget: e.target.value as BriefTarget })}>
            {BRIEF_TARGETS.map((t) => (
              <option key={t} value={t}>
                {TARGET_NAMES[t]}
              </option>
            ))}
          </select>
        </div>
        <NumberSetting id="set-budget" label="Brief token budget" value={settings.briefBudget} min={500} max={200_000} step={500} onCommit={(briefBudget) => update({ briefBudget })} />
        <Toggle id="set-redact" label="Redact secrets in briefs" checked={settings.redact} onChange={(redact) => void update({ redact })} />
        <NumberSetting
          id="set-clipboard"
          label="Clear clipboard after (seconds, 0 = never)"
          value={settings.clipboardClearSeconds}
          min={0}
          max={3600}
          step={5}
          onCommit={(clipboardClearSeconds) => update({ clipboardClearSeconds })}
        />
        <NumberSetting
          id="set-handoff-expiry"
          label="A handoff not received expires after (hours)"
          value={settings.handoffExpiryHours}
          min={1}
          max={720}
          step={1}
          onCommit={(handoffExpiryHours) => update({ handoffExpiryHours })}
        />
      </fieldset>

      <fieldset>
        <legend>Usage alerts</legend>
        <Toggle id="set-usage-alerts" label="Notify when a session’s context is nearly full or an agent hits its usage limit" checked={settings.usageAlerts} onChange={(usageAlerts) => void update({ usageAlerts })} />
        <NumberSetting
          id="set-usage-context"
          label="Context alert at (% of the window)"
          value={settings.usageAlertContextPercent}
          min={10}
          max={100}
          step={5}
          onCommit={(usageAlertContextPercent) => update({ usageAlertContextPercent })}
        />
      </fieldset>

      <AutoContinueSection />

      <MachinesSection machines={settings.machines} onChange={(machines) => update({ machines })} />

      <McpSection port={settings.port} onPort={(port) => update({ port })} />
      <HooksSection />

      <fieldset>
        <legend>General</legend>
        <Toggle id="set-login" label="Launch at login" checked={settings.launchAtLogin} onChange={(launchAtLogin) => void update({ launchAtLogin })} />
        <div className="setting">
          <label htmlFor="set-theme">Theme</label>
          <select id="set-theme" value={settings.theme} onChange={(e) => void update({ theme: e.target.value as Settings['theme'] })}>
            {THEMES.map((t) => (
              <option key={t} value={t}>
                {t === 'system' ? 'Match system' : t === 'light' ? 'Light' : 'Dark'}
              </option>
            ))}
          </select>
        </div>
        <ExcludedProjects value={settings.excludedProjects} onCommit={(excludedProjects) => update({ excludedProjects })} />
        <p className="muted small-print">Settings and data live in {view.dataDir}</p>
      </fieldset>
    </section>
  );
}

function Toggle(props: { id: string; label: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <div className="setting">
      <label htmlFor={props.id}>{props.label}</label>
      <input id={props.id} type="checkbox" role="switch" className="switch" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
    </div>
  );
}

function NumberSetting(props: {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onCommit: (value: number) => Promise<boolean>;
}) {
  const [text, setText] = useDraft(String(props.value));
  const parsed = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(parsed) && parsed >= props.min && parsed <= props.max;
  const commit = () => {
    if (valid && parsed !== props.value) void props.onCommit(parsed);
  };
  return (
    <div className="setting">
      <label htmlFor={props.id}>{props.label}</label>
      <span className="setting-control">
        <input
          id={props.id}
          type="number"
          inputMode="numeric"
          min={props.min}
          max={props.max}
          step={props.step}
          value={text}
          aria-invalid={!valid}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
        {!valid && (
          <span className="field-error">
            {props.min.toLocaleString()}–{props.max.toLocaleString()}
          </span>
        )}
      </span>
    </div>
  );
}

function ExcludedProjects({ value, onCommit }: { value: string[]; onCommit: (globs: string[]) => Promise<boolean> }) {
  const joined = value.join('\n');
  const [text, setText] = useDraft(joined);
  const commit = () => {
    const globs = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
    if (globs.join('\n') !== joined) void onCommit(globs);
  };
  return (
    <div className="setting setting-wide">
      <label htmlFor="set-excluded">
        Excluded projects <span className="muted">(globs over the session folder, one per line, e.g. <code>**/secret-*</code>)</span>
      </label>
      <textarea id="set-excluded" rows={3} value={text} onChange={(e) => setText(e.target.value)} onBlur={commit} spellCheck={false} />
    </div>
  );
}
