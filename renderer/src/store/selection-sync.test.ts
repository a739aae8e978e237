import { describe, expect, it } from 'vitest';
import type { SearchHit, SettingsView } from '../../../shared/api-types.js';
import { createClient } from '../../../shared/client.js';
import { defaultSettings } from '../../../shared/settings.js';
import { createAppStore } from './app-store.js';
import { rowFromSession } from './rows.js';
import { selectedSession } from './selection-sync.js';
import { makeSession } from '../../../testing/renderer/store-test-data.js';
import { createScriptedTransport } from '../../../testing/renderer/scripted-transport.js';

const sessions = Array.from({ length: 5 }, (_, i) => makeSession(`claude:s${i}`));
const DELAY = 40;

function setup(options: { failSelection?: boolean } = {}) {
  const transport = createScriptedTransport();
  transport.respond('health', () => ({ ok: true, name: 'baton', version: '0', uptimeSeconds: 1, index: { phase: 'watching', sessions: 5, currentAt: null } }));
  transport.respond('indexProgress', () => ({ phase: 'watching', filesDone: 1, filesTotal: 1, bytesDone: 1, bytesTotal: 1, currentAt: null, error: null }));
  transport.respond('sourceStatus', () => []);
  transport.respond('getSettings', (): SettingsView => ({
    settings: defaultSettings(),
    detected: { claude: [], codex: [], opencode: [], hermes: [], gemini: [], qwen: [], pi: [], cline: [], kilo: [], copilot: [], continue: [], droid: [], letta: [] },
    warning: null,
    dataDir: '/h/.baton',
  }));
  transport.respond('listSessions', () => ({ sessions, total: sessions.length }));
  transport.respond('getSession', (input) => sessions.find((s) => s.id === input.session));
  transport.respond('generateBrief', (input) => ({ sessionId: input.session, target: 'generic', format: 'md', text: 'b', tokens: 1, budget: 6000, redactions: {}, redacted: true, openCommand: null }));
  let failing = options.failSelection ?? false;
  transport.respond('setSelection', (input) => {
    if (failing) throw new Error('core restarting');
    return { session: input.session };
  });
  const store = createAppStore({ client: createClient(transport), transport, clipboard: { writeText: async () => undefined }, selectionSyncMs: DELAY });
  const sent = () => transport.calls.filter((c) => c.method === 'setSelection').map((c) => c.input.session);
  return { store, transport, sent, recover: () => (failing = false) };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not reached');
    await settle(5);
  }
}

describe('selection sync (the global hotkey copies the selected session)', () => {
  it('sends nothing until the user picks, then only the last of a fast run of moves', async () => {
    const { store, sent } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 5 && !store.getState().sessionsLoading);
    await settle(DELAY * 3);
    expect(sent()).toEqual([]); // loading the list is not a pick: the hotkey keeps copying the latest

    store.getState().moveCursor(1);
    store.getState().moveCursor(1);
    store.getState().moveCursor(1);
    await until(() => sent().length === 1);
    await settle(DELAY * 3);
    expect(sent()).toEqual(['claude:s3']);

    // Moving away and back within the debounce sends nothing: the core already has it.
    store.getState().moveCursor(1);
    store.getState().moveCursor(-1);
    await settle(DELAY * 3);
    expect(sent()).toEqual(['claude:s3']);
  });

  it('follows the preview, the cursor and a search’s top hit', async () => {
    const { store, transport, sent } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 5);
    store.getState().openPreview('claude:s4');
    await until(() => sent().length === 1);
    expect(sent()).toEqual(['claude:s4']);
    store.getState().closePreview();
    store.getState().setCursor(2);
    await until(() => sent().length === 2);
    expect(sent()).toEqual(['claude:s4', 'claude:s2']);

    // A search selects its top hit (what the list highlights).
    const hit: SearchHit = { sessionId: 'claude:s1', agent: 'claude', nativeId: 's1', title: null, cwd: null, seq: 0, role: 'user', snippet: '[[x]]', timestamp: null, score: 1 };
    transport.respond('search', () => [hit]);
    store.getState().setQuery('x');
    await until(() => sent().length === 3);
    expect(sent().at(-1)).toBe('claude:s1');
    expect(selectedSession(store.getState())).toBe('claude:s1');
  });

  it('ignores failures silently and sends again on the next change', async () => {
    const { store, sent, recover } = setup({ failSelection: true });
    store.getState().init();
    await until(() => store.getState().sessions.length === 5);
    store.getState().setCursor(1);
    await until(() => sent().length === 1);
    await settle(DELAY);
    expect(store.getState().notices).toEqual([]);
    recover();
    store.getState().setCursor(2);
    store.getState().setCursor(1); // back to the value whose send failed: it is sent again
    await until(() => sent().length === 2);
    expect(sent()).toEqual(['claude:s1', 'claude:s1']);
  });
});

describe('selectedSession', () => {
  const rows = sessions.map(rowFromSession);
  it('is the previewed session, or the highlighted row only when it is the user’s pick', () => {
    expect(selectedSession({ view: 'preview', previewId: 'claude:s4', rows, cursor: 0, selectedId: 'claude:s0' })).toBe('claude:s4');
    expect(selectedSession({ view: 'list', previewId: 'claude:s4', rows, cursor: 1, selectedId: 'claude:s1' })).toBe('claude:s1');
    expect(selectedSession({ view: 'settings', previewId: null, rows, cursor: 1, selectedId: 'claude:s1' })).toBe('claude:s1');
    expect(selectedSession({ view: 'list', previewId: null, rows, cursor: 0, selectedId: null })).toBeNull();
    expect(selectedSession({ view: 'list', previewId: null, rows, cursor: 0, selectedId: 'claude:gone' })).toBeNull();
    expect(selectedSession({ view: 'list', previewId: null, rows: [], cursor: -1, selectedId: null })).toBeNull();
  });
});

describe('desktop status', () => {
  it('is loaded with the settings view; a failure leaves desktop-only controls hidden', async () => {
    const { store, transport } = setup();
    transport.respond('mcpInfo', () => ({ url: 'http://127.0.0.1:1/mcp', port: 1, token: 't' }));
    transport.respond('desktopStatus', () => ({ mode: 'desktop', hotkey: null, server: null, launchAtLogin: null }));
    store.getState().setView('settings');
    await until(() => store.getState().desktopStatus !== null);
    expect(store.getState().desktopStatus?.mode).toBe('desktop');

    transport.respond('desktopStatus', () => {
      throw new Error('offline');
    });
    store.getState().setView('settings');
    await until(() => store.getState().desktopStatus === null);
  });
});
