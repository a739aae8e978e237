/**
 * Turns index changes into usage alerts: after sessions change (folded, one summary at a time) the
 * summary is compared with the last one and each new alert is emitted once as a core event, which
 * the UIs show as a notice with its action and Electron main as a native notification.
 */
import { AGENTS, type AgentId } from '../../../shared/model.js';
import type { Settings } from '../../../shared/settings.js';
import type { UsageSummary } from '../../../shared/usage.js';
import type { CoreEvents } from '../events.js';
import { decideUsageAlerts } from './usage-alerts.js';

export interface UsageWatchDeps {
  events: CoreEvents;
  summary(): Promise<UsageSummary>;
  settings(): Settings;
  log(line: string): void;
  /** Bursts of changes fold into one check this long after the first (default 500 ms). */
  delayMs?: number;
}

export function watchUsageAlerts(deps: UsageWatchDeps): () => void {
  let previous: UsageSummary | null = null;
  const fired = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let again = false;
  let stopped = false;

  const check = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    try {
      const current = await deps.summary();
      const settings = deps.settings();
      const targets = AGENTS.filter((a: AgentId) => settings.agents[a].enabled);
      const alerts = decideUsageAlerts(previous, current, { enabled: settings.usageAlerts, contextPercent: settings.usageAlertContextPercent, targets }, fired);
      previous = current;
      if (!stopped) for (const alert of alerts) deps.events.emit({ type: 'usage-alert', alert });
    } catch (err) {
      deps.log(`usage alerts: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      running = false;
    }
    if (again && !stopped) void check();
  };

  const schedule = (): void => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void check();
    }, deps.delayMs ?? 500);
  };

  const off = deps.events.subscribe((event) => {
    if (event.type === 'sessions-changed' || event.type === 'settings-changed') schedule();
    else if (event.type === 'index-progress' && (event.progress.phase === 'watching' || event.progress.phase === 'idle')) schedule();
  });
  return () => {
    stopped = true;
    off();
    if (timer) clearTimeout(timer);
  };
}
