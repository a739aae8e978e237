// The usage slice against a scripted core: answers held by gates the test opens, so each
// interleaving (an old summary arriving last, a session's usage arriving after another was
// opened) is exact, not timed.
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/api-types.js';
import { createClient } from '../../../shared/client.js';
import { defaultSettings } from '../../../shared/settings.js';
import type { SessionUsage, UsageAlert, UsageSummary } from '../../../shared/usage.js';
import { createAppStore, type AppStore } from './app-store.js';
import { makeSession } from '../../../testing/renderer/store-test-data.js';
import { createScriptedTransport, type ScriptedTransport } from '../../../testing/renderer/scripted-transport.js';
import { whenState } from './when-state.js';

const sessions = [makeSession('claude:s0'), makeSession('codex:s1')];

function gate<T>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

function usage(session: string, contextPercent: number): SessionUsage {
  return {
    session, agent: session.startsWith('codex') ? 'codex' : 'claude', title: null, cwd: null, lastActivity: null,
    inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 15, costUSD: null, models: ['m'], unpricedModels: ['m'], requests: 1,
    contextTokens: 1, contextWindow: 100, contextPercent, contextHistory: [1],
    own: { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 15, costUSD: null, requests: 1 }, subagents: [], limitHit: null,
  };
}

const summaryWith = (...live: SessionUsage[]): UsageSummary => ({
  generatedAt: 'now',
  agents: [{ agent: 'codex', today: usage('x', 0), windows: [], limitHit: null, liveSessions: live, activeBlock: null }],
});

const settingsView: SettingsView = { settings: defaultSettings(), detected: { claude: [], codex: [], opencode: [], hermes: [], gemini: [], qwen: [], pi: [], cline: [], kilo: [], copilot: [], continue: [], droid: [], letta: [] }, warning: null, dataDir: '/h' };

function setup(): { store: AppStore; transport: ScriptedTransport; copied: string[] } {
  const transport = createScriptedTransport();
  transport.respond('health', () => ({ ok: true, name: 'baton', version: '0', uptimeSeconds: 1, index: { phase: 'watching', sessions: 2, currentAt: null } }));
  transport.respond('indexProgress', () => ({ phase: 'watching', filesDone: 1, filesTotal: 1, bytesDone: 1, bytesTotal: 1, currentAt: null, error: null }));
  transport.respond('sourceStatus', () => []);
  transport.respond('getSettings', () => settingsView);
  transport.respond('listSessions', () => ({ sessions, total: sessions.length }));
  transport.respond('getSession', (input) => sessions.find((s) => s.id === input.session));
  transport.respond('generateBrief', (input) => ({ sessionId: input.session, target: input.target, format: input.format, text: `brief ${String(input.session)} for ${String(input.target)}`, tokens: 7, budget: 6000, redactions: {}, redacted: true, openCommand: null }));
  transport.respond('setSelection', (input) => ({ session: input.session }));
  transport.respond('usageSummary', (input) => (input.session ? { ...summaryWith(), session: usage(String(input.session), 40) } : summaryWith(usage('codex:s1', 50))));
  const copied: string[] = [];
  const store = createAppStore({ client: createClient(transport), transport, clipboard: { writeText: async (text) => void copied.push(text) } });
  return { store, transport, copied };
}

async function started(store: AppStore): Promise<void> {
  store.getState().init();
  await whenState(store, (s) => s.sessions.length === sessions.length && s.usage !== null && s.settingsView !== null);
}

/** Lets pending promise callbacks run (no timers involved). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('usage in the store', () => {
  it('loads live sessions’ usage at start, keyed by session for the list’s meters', async () => {
    const { store } = setup();
    await started(store);
    expect([...store.getState().liveUsage.keys()]).toEqual(['codex:s1']);
    expect(store.getState().liveUsage.get('codex:s1')?.contextPercent).toBe(50);
  });

  it('never lets an older summary replace a newer one', async () => {
    const { store, transport } = setup();
    await started(store);
    const slow = gate<UsageSummary>();
    const fast = gate<UsageSummary>();
    const held = [slow, fast];
    transport.respond('usageSummary', () => held.shift()!.promise);
    const first = store.getState().loadUsage();
    const second = store.getState().loadUsage();
    fast.open(summaryWith(usage('codex:s1', 90)));
    await second;
    slow.open(summaryWith(usage('codex:s1', 60)));
    await first;
    expect(store.getState().liveUsage.get('codex:s1')?.contextPercent).toBe(90);
  });

  it('shows a session’s usage only for that session, even when its answer comes after another was opened', async () => {
    const { store, transport } = setup();
    await started(store);
    const held = gate<UsageSummary>();
    transport.respond('usageSummary', (input) => (input.session === 'claude:s0' ? held.promise : { ...summaryWith(), session: usage(String(input.session), 70) }));
    store.getState().openPreview('claude:s0');
    store.getState().openPreview('codex:s1');
    await whenState(store, (s) => s.sessionUsage !== null);
    held.open({ ...summaryWith(), session: usage('claude:s0', 10) });
    await flush();
    expect(store.getState().sessionUsage).toEqual({ for: 'codex:s1', usage: expect.objectContaining({ session: 'codex:s1', contextPercent: 70 }) });
    // Asked for the session's own agent only.
    expect(transport.calls.filter((c) => c.method === 'usageSummary' && c.input.session).map((c) => c.input)).toEqual([
      { session: 'claude:s0', agent: 'claude' },
      { session: 'codex:s1', agent: 'codex' },
    ]);
  });

  it('shows a usage alert as a notice that stays, whose action creates the handoff to the suggested agent and copies its brief', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    const handoff = {
      id: 'h1', sessionId: 'claude:s0', idempotencyToken: null, summary: 's', decisions: [], nextSteps: [], blockers: [], itemsCompleted: [], itemsAdded: [],
      filesChanged: [], git: null, continuesFrom: null, status: 'pending' as const, createdAt: '2026-11-25T11:00:00Z', receivedAt: null, completedAt: null,
      handoff: { agent: 'codex' as const, projectDir: '/p/demo', worktreeRoot: null, expiresAt: '2026-11-26T11:00:00Z', receivedBy: null },
    };
    transport.respond('handOff', () => ({ checkpoint: handoff, brief: 'HANDOFF BRIEF', hooksInstalled: false, delivery: { via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent codex', settings: 'Settings → Hooks' }, opened: null }));
    transport.respond('listHandoffs', () => [handoff]);
    const alert: UsageAlert = { key: 'limit:claude:t', kind: 'limit', agent: 'claude', session: 'claude:s0', message: 'Claude Code reached its usage limit (resets 19:00). Hand off to Codex CLI?', suggestedTarget: 'codex', resetsAt: null, contextPercent: null };
    transport.emit({ type: 'usage-alert', alert });
    const notice = store.getState().notices.find((n) => n.alert);
    expect(notice).toMatchObject({ level: 'warning', message: alert.message, alert });
    await expect(store.getState().handOffAlert(alert)).resolves.toBe(true);
    expect(transport.calls.find((c) => c.method === 'handOff')?.input).toEqual({ session: 'claude:s0', target: 'codex' });
    expect(copied).toEqual(['HANDOFF BRIEF']);
    expect(store.getState().notices.at(-1)?.message).toBe('Handed off to Codex CLI. It has no Baton start-up hook, so paste the brief (copied); Settings → Hooks installs it.');
  });

  it('tells a limit reset as an info notice that stays', async () => {
    const { store, transport } = setup();
    await started(store);
    const alert: UsageAlert = { key: 'reset:k', kind: 'reset', agent: 'claude', session: 'claude:s0', message: "Claude Code's usage limit has reset (hit at 14:02). Codex CLI carried on (codex:s1).", suggestedTarget: null, resetsAt: null, contextPercent: null, carriedOnBy: { agent: 'codex', session: 'codex:s1' } };
    transport.emit({ type: 'usage-alert', alert });
    expect(store.getState().notices.find((n) => n.alert)).toMatchObject({ level: 'info', message: alert.message, alert });
  });

  it('copies the generic brief when no other agent can take the session', async () => {
    const { store, copied } = setup();
    await started(store);
    const alert: UsageAlert = { key: 'k', kind: 'context', agent: 'claude', session: 'claude:s0', message: 'm', suggestedTarget: null, resetsAt: null, contextPercent: 90 };
    await expect(store.getState().handOffAlert(alert)).resolves.toBe(true);
    expect(copied).toEqual(['brief claude:s0 for generic']);
  });
});
