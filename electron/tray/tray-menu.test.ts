import { describe, expect, it } from 'vitest';
import { buildTrayMenu, type TraySession } from './tray-menu.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

function sessions(n: number): TraySession[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `claude:s${i}`,
    agent: i % 2 ? 'codex' : 'claude',
    title: `Session ${i}`,
    cwd: `/home/me/proj-${i}`,
    updatedAt: ago(i * 3_600_000),
  }));
}

describe('buildTrayMenu', () => {
  it('lists the ten most recent sessions with agent, project and age, then the commands', () => {
    const menu = buildTrayMenu({ sessions: sessions(12), now: NOW, hotkey: 'CommandOrControl+Shift+B' });
    const sessionItems = menu.filter((i) => i.action?.type === 'copy-session');
    expect(sessionItems).toHaveLength(10);
    expect(sessionItems[0]).toMatchObject({ label: 'Claude Code · proj-0 · just now', toolTip: 'Session 0', action: { sessionId: 'claude:s0' } });
    expect(sessionItems[1]?.label).toBe('Codex CLI · proj-1 · 1h ago');
    const labels = menu.filter((i) => i.type === 'normal' && !i.action?.type.startsWith('copy-session')).map((i) => i.label);
    expect(labels).toEqual(['Recent sessions — click to copy the brief', 'Open Baton', 'Copy latest brief', 'Checkpoint…', 'Settings…', 'Quit Baton']);
    expect(menu.find((i) => i.action?.type === 'copy-latest')).toMatchObject({ accelerator: 'CommandOrControl+Shift+B', enabled: true });
    expect(menu.at(-1)?.action).toEqual({ type: 'quit' });
  });

  it('without sessions: says why, and disables what needs one; no accelerator without a registered hotkey', () => {
    const menu = buildTrayMenu({ sessions: [], now: NOW, hotkey: null, sessionsNote: 'Indexing… 40%' });
    expect(menu[0]).toEqual({ type: 'normal', label: 'Indexing… 40%', enabled: false });
    const copy = menu.find((i) => i.action?.type === 'copy-latest');
    expect(copy?.enabled).toBe(false);
    expect(copy && 'accelerator' in copy).toBe(false);
    expect(menu.find((i) => i.action?.type === 'checkpoint')?.enabled).toBe(false);
  });

  it('escapes & so it is not read as a mnemonic, and shortens long project names', () => {
    const [session] = sessions(1);
    const menu = buildTrayMenu({ sessions: [{ ...session!, cwd: '/p/R&D tools and a very long project name here' }], now: NOW, hotkey: null });
    expect(menu[1]?.label).toBe('Claude Code · R&&D tools and a very long proje… · just now');
  });
});

describe('usage in the tray menu', () => {
  const totals = (tokens: number, costUSD: number | null) => ({ inputTokens: tokens, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: tokens, costUSD, models: [], unpricedModels: [], requests: tokens ? 1 : 0 });
  const live = (session: string, contextPercent: number | null) => ({
    ...totals(10, null), session, agent: 'codex' as const, title: 'Fix login', cwd: '/home/me/web & api', lastActivity: ago(60_000),
    contextTokens: 1, contextWindow: 100, contextPercent, contextHistory: [1], own: totals(10, null), subagents: [], limitHit: null,
  });
  const clock = (iso: string) => iso.slice(11, 16);

  it('shows per agent today’s tokens and cost, its windows with reset times, a limit hit and live sessions’ context', () => {
    const items = buildTrayMenu({
      sessions: sessions(1),
      now: NOW,
      hotkey: null,
      formatTime: clock,
      usage: [
        {
          agent: 'codex', today: totals(1_234_000, 3.4),
          windows: [
            { name: 'primary', usedPercent: 97.5, windowMinutes: 300, resetsAt: '2026-05-01T19:00:00.000Z', note: null, reportedAt: null },
            { name: 'secondary', usedPercent: 41, windowMinutes: 10_080, resetsAt: null, note: null, reportedAt: null },
          ],
          limitHit: null, liveSessions: [live('codex:a', 91.4), live('codex:b', null)], activeBlock: null,
        },
        {
          agent: 'claude', today: totals(5_000, null), windows: [],
          limitHit: { key: 'claude:x@1', agent: 'claude', kind: 'rate_limit', window: null, at: ago(1000), resetsAt: '2026-05-01T19:00:00.000Z', note: null, session: 'claude:x' }, liveSessions: [],
          activeBlock: { ...totals(5_000, null), start: '2026-05-01T10:00:00.000Z', end: '2026-05-01T15:00:00.000Z', actualEnd: ago(1000), isActive: true, agents: ['claude'] },
        },
        { agent: 'gemini', today: totals(0, null), windows: [], limitHit: null, liveSessions: [], activeBlock: null },
      ],
    });
    const usage = items.slice(0, items.findIndex((i) => i.type === 'separator'));
    expect(usage.map((i) => i.label)).toEqual([
      'Codex CLI — today 1.2M tokens · $3.40',
      '    5-hour window 98 % · resets 19:00',
      '    weekly window 41 %',
      '    web && api · context 91 %',
      '    web && api · context unknown',
      'Claude Code — today 5.0k tokens · no price',
      '    Usage limit reached · resets 19:00',
      '    5-hour block 5.0k tokens · ends 15:00',
    ]);
    expect(usage.filter((i) => i.action).map((i) => i.action)).toEqual([
      { type: 'copy-session', sessionId: 'codex:a' },
      { type: 'copy-session', sessionId: 'codex:b' },
    ]);
    expect(usage.filter((i) => !i.action).every((i) => i.enabled === false)).toBe(true);
  });

  it('adds nothing when there is no usage to show', () => {
    const without = buildTrayMenu({ sessions: sessions(2), now: NOW, hotkey: null });
    const empty = buildTrayMenu({ sessions: sessions(2), now: NOW, hotkey: null, usage: [] });
    expect(empty).toEqual(without);
    expect(without[0]?.label).toBe('Recent sessions — click to copy the brief');
  });
});

describe('handoffs in the tray menu', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('lists handoffs in flight with their target, folder and state, after the recent sessions', () => {
    const items = buildTrayMenu({
      sessions: [],
      now,
      hotkey: null,
      handoffs: [
        { id: 'h1', target: 'codex', projectDir: '/home/ana/demo-app', status: 'pending', receivedBy: null, createdAt: '2026-11-25T11:55:00Z' },
        { id: 'h2', target: 'claude', projectDir: '/home/ana/api', status: 'received', receivedBy: 'claude:1acd9001', createdAt: '2026-11-25T10:00:00Z' },
      ],
    });
    const labels = items.map((i) => i.label);
    expect(labels).toContain('Handoffs');
    expect(labels).toContain('→ Codex CLI · demo-app · pending · 5m ago');
    expect(labels).toContain('→ Claude Code · api · received by claude:1acd9001');
    expect(labels.indexOf('Handoffs')).toBeLessThan(labels.indexOf('Open Baton'));
  });

  it('shows no handoff section when none is in flight', () => {
    expect(buildTrayMenu({ sessions: [], now, hotkey: null, handoffs: [] }).map((i) => i.label)).not.toContain('Handoffs');
  });
});
