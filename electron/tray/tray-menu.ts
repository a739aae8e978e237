/**
 * The tray menu as plain data: recent sessions, then the app's commands. Built by a pure function
 * from a model so it is testable without Electron; `tray.ts` turns actions into click handlers.
 */
import { AGENT_LABELS, type AgentId } from '../../shared/model.js';
import type { AgentUsageSummary } from '../../shared/usage.js';
import { projectName } from '../../shared/project-labels.js';
import { relativeTime } from '../../shared/time-labels.js';
import { compactTokens, formatCost, localClock, windowName } from '../../shared/usage-format.js';

export const TRAY_RECENT_SESSIONS = 10;

export interface TraySession {
  id: string;
  agent: AgentId;
  title: string | null;
  cwd: string | null;
  updatedAt: string | null;
}

/** A handoff still in flight: pending (not expired) or received and not yet completed. */
export interface TrayHandoff {
  id: string;
  target: AgentId;
  projectDir: string;
  status: 'pending' | 'received';
  /** `<agent>:<session id>` once received. */
  receivedBy: string | null;
  createdAt: string;
}

export interface TrayMenuModel {
  sessions: readonly TraySession[];
  /** Handoffs in flight, newest first (optional: older callers show none). */
  handoffs?: readonly TrayHandoff[];
  now: number;
  /** The global hotkey (normalized accelerator) when it is registered; shown next to "Copy latest brief". */
  hotkey: string | null;
  /** Set while the recent sessions cannot be listed (index not ready, error). */
  sessionsNote?: string | null;
  /** Per agent usage (today, windows, limit hit, live sessions); absent when it cannot be read. */
  usage?: readonly AgentUsageSummary[];
  /** Reset times as the menu shows them (local "19:00"; tests pass a fixed one). */
  formatTime?: (iso: string) => string;
}

export type TrayAction =
  | { type: 'copy-session'; sessionId: string }
  | { type: 'open' }
  | { type: 'copy-latest' }
  | { type: 'checkpoint' }
  | { type: 'settings' }
  | { type: 'quit' };

export interface TrayMenuItem {
  type: 'normal' | 'separator';
  label?: string;
  enabled?: boolean;
  accelerator?: string;
  toolTip?: string;
  action?: TrayAction;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `&` marks a mnemonic in Windows/Linux menu labels; a literal one is written `&&`. */
function escapeLabel(text: string): string {
  return text.replace(/&/g, '&&');
}

export function sessionLabel(session: TraySession, now: number): string {
  return escapeLabel(`${AGENT_LABELS[session.agent]} · ${truncate(projectName(session.cwd), 32)} · ${relativeTime(session.updatedAt, now)}`);
}

/**
 * Per agent with anything to show: today's tokens and cost, its usage windows (percent, reset),
 * a limit hit, the current 5-hour block, and its live sessions with their context fill (click
 * copies the brief, as for recent sessions).
 */
export function usageItems(usage: readonly AgentUsageSummary[], formatTime: (iso: string) => string = localClock): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  const info = (label: string): TrayMenuItem => ({ type: 'normal', label: escapeLabel(label), enabled: false });
  for (const a of usage) {
    if (a.today.requests === 0 && a.windows.length === 0 && !a.limitHit && a.liveSessions.length === 0) continue;
    const cost = a.today.costUSD === null && a.today.requests === 0 ? '' : ` · ${formatCost(a.today.costUSD)}`;
    items.push(info(`${AGENT_LABELS[a.agent]} — today ${compactTokens(a.today.totalTokens)} tokens${cost}`));
    if (a.limitHit) items.push(info(`    Usage limit reached${a.limitHit.resetsAt ? ` · resets ${formatTime(a.limitHit.resetsAt)}` : ''}`));
    for (const w of a.windows) {
      if (w.usedPercent === null) continue;
      items.push(info(`    ${windowName(w.windowMinutes, w.name)} ${Math.round(w.usedPercent)} %${w.resetsAt ? ` · resets ${formatTime(w.resetsAt)}` : ''}`));
    }
    if (a.windows.length === 0 && a.activeBlock) {
      items.push(info(`    5-hour block ${compactTokens(a.activeBlock.totalTokens)} tokens · ends ${formatTime(a.activeBlock.end)}`));
    }
    for (const s of a.liveSessions.slice(0, 5)) {
      const fill = s.contextPercent === null ? 'context unknown' : `context ${Math.round(s.contextPercent)} %`;
      items.push({
        type: 'normal',
        label: escapeLabel(`    ${truncate(projectName(s.cwd), 28)} · ${fill}`),
        toolTip: s.title ?? undefined,
        action: { type: 'copy-session', sessionId: s.session },
      });
    }
  }
  return items;
}

export function handoffLabel(h: TrayHandoff, now: number): string {
  const state = h.status === 'received' ? `received by ${h.receivedBy ?? 'an agent'}` : `pending · ${relativeTime(h.createdAt, now)}`;
  return escapeLabel(`→ ${AGENT_LABELS[h.target]} · ${truncate(projectName(h.projectDir), 24)} · ${truncate(state, 48)}`);
}

export function buildTrayMenu(model: TrayMenuModel): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  const usage = usageItems(model.usage ?? [], model.formatTime);
  if (usage.length > 0) items.push(...usage, { type: 'separator' });
  const recent = model.sessions.slice(0, TRAY_RECENT_SESSIONS);
  if (recent.length === 0) {
    items.push({ type: 'normal', label: model.sessionsNote ?? 'No sessions yet', enabled: false });
  } else {
    items.push({ type: 'normal', label: 'Recent sessions — click to copy the brief', enabled: false });
    for (const session of recent) {
      items.push({
        type: 'normal',
        label: sessionLabel(session, model.now),
        toolTip: session.title ?? undefined,
        action: { type: 'copy-session', sessionId: session.id },
      });
    }
  }
  if (model.handoffs && model.handoffs.length > 0) {
    items.push({ type: 'separator' }, { type: 'normal', label: 'Handoffs', enabled: false });
    for (const h of model.handoffs.slice(0, 3)) {
      items.push({ type: 'normal', label: handoffLabel(h, model.now), toolTip: h.projectDir, action: { type: 'open' } });
    }
  }
  items.push(
    { type: 'separator' },
    { type: 'normal', label: 'Open Baton', action: { type: 'open' } },
    {
      type: 'normal',
      label: 'Copy latest brief',
      enabled: recent.length > 0,
      ...(model.hotkey ? { accelerator: model.hotkey } : {}),
      action: { type: 'copy-latest' },
    },
    { type: 'normal', label: 'Checkpoint…', enabled: recent.length > 0, action: { type: 'checkpoint' } },
    { type: 'normal', label: 'Settings…', action: { type: 'settings' } },
    { type: 'separator' },
    { type: 'normal', label: 'Quit Baton', action: { type: 'quit' } },
  );
  return items;
}
