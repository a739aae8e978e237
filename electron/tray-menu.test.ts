import { describe, expect, it } from 'vitest';
import { buildTrayMenu, formatAge, projectName, type TraySession } from './tray-menu.js';

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

describe('formatAge', () => {
  it.each([
    [ago(5_000), 'just now'],
    [ago(5 * 60_000), '5m ago'],
    [ago(3 * 3_600_000), '3h ago'],
    [ago(2 * 86_400_000), '2d ago'],
    [ago(40 * 86_400_000), '5w ago'],
    ['2024-01-02T00:00:00Z', '2024-01-02'],
    [null, 'unknown age'],
    ['garbage', 'unknown age'],
    [ago(-60_000), 'just now'],
  ])('%s → %s', (iso, label) => expect(formatAge(iso, NOW)).toBe(label));
});

describe('projectName', () => {
  it('takes the last segment on either separator', () => {
    expect(projectName('/home/me/baton/')).toBe('baton');
    expect(projectName('C:\\Users\\me\\My Proj')).toBe('My Proj');
    expect(projectName(null)).toBe('no project');
  });
});

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
