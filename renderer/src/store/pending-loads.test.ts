// Actions that arrive while a load is out (a brief, a search, the settings, the MCP token): each
// waits for it, shows that it waits, or queues, instead of acting on whatever is loaded at that
// instant. Responses are held by gates the test opens, so every interleaving is exact, not timed.
import { describe, expect, it } from 'vitest';
import type { BriefResult, McpInfo, RestoreResult, SearchHit, SettingsView } from '../../../shared/api-types.js';
import { createClient } from '../../../shared/client.js';
import { defaultSettings, type Settings } from '../../../shared/settings.js';
import { createAppStore, type AppStore } from './app-store.js';
import { makeSession } from '../../../testing/renderer/store-test-data.js';
import { createScriptedTransport, type ScriptedTransport } from '../../../testing/renderer/scripted-transport.js';
import { whenState } from './when-state.js';

const sessions = [
  makeSession('claude:s0'),
  makeSession('codex:s1'),
  makeSession('hermes:s2'),
  makeSession('claude:s3'),
];

/** A response held until the test opens it. */
interface Gate<T> {
  promise: Promise<T>;
  open(value: T): void;
  fail(err: Error): void;
}

function gate<T>(): Gate<T> {
  let open!: (value: T) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

function settingsView(over: Partial<Settings> = {}): SettingsView {
  return {
    settings: { ...defaultSettings(), defaultTarget: 'codex', briefBudget: 4000, ...over },
    detected: { claude: [], codex: [], opencode: [], hermes: [], gemini: [], qwen: [], pi: [], cline: [], kilo: [], copilot: [], continue: [], droid: [], letta: [] },
    warning: null,
    dataDir: '/h/.baton',
  };
}

function brief(session: unknown, target: unknown, format: unknown = 'md'): BriefResult {
  return {
    sessionId: String(session),
    target: target as BriefResult['target'],
    format: format as BriefResult['format'],
    text: `brief ${String(session)} for ${String(target)} as ${String(format)}`,
    tokens: 12,
    budget: 4000,
    redactions: {},
    redacted: true,
    openCommand: null,
  };
}

const hits = (ids: string[]): SearchHit[] =>
  ids.map((id) => ({ sessionId: id, agent: 'claude', nativeId: id, title: null, cwd: null, seq: 0, role: 'user', snippet: `[[${id}]]`, timestamp: null, score: 1 }));

/** A store over a scripted core; briefs answer at once unless a test holds them. */
function setup(): { store: AppStore; transport: ScriptedTransport; copied: string[] } {
  const transport = createScriptedTransport();
  transport.respond('health', () => ({ ok: true, name: 'baton', version: '0', uptimeSeconds: 1, index: { phase: 'watching', sessions: 4, currentAt: null } }));
  transport.respond('indexProgress', () => ({ phase: 'watching', filesDone: 1, filesTotal: 1, bytesDone: 1, bytesTotal: 1, currentAt: null, error: null }));
  transport.respond('sourceStatus', () => []);
  transport.respond('getSettings', () => settingsView());
  transport.respond('listSessions', () => ({ sessions, total: sessions.length }));
  transport.respond('getSession', (input) => sessions.find((s) => s.id === input.session));
  transport.respond('generateBrief', (input) => brief(input.session, input.target, input.format));
  transport.respond('setSelection', (input) => ({ session: input.session }));
  const copied: string[] = [];
  const store = createAppStore({ client: createClient(transport), transport, clipboard: { writeText: async (text) => void copied.push(text) } });
  return { store, transport, copied };
}

async function started(store: AppStore): Promise<void> {
  store.getState().init();
  await whenState(store, (s) => s.sessions.length === sessions.length && !s.sessionsLoading && s.settingsView !== null);
}

/** Lets pending promise callbacks run (no timers involved). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const briefCalls = (t: ScriptedTransport) => t.calls.filter((c) => c.method === 'generateBrief').map((c) => [c.input.session, c.input.target]);

describe('copy while the brief is being prepared', () => {
  it('waits for the brief of the target just chosen, shows that it waits, and copies it', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    store.getState().openPreview('claude:s0');
    await whenState(store, (s) => s.brief !== null && !s.briefLoading);

    const held = gate<BriefResult>();
    transport.respond('generateBrief', () => held.promise);
    store.getState().setTarget('hermes');
    const copy = store.getState().copyBrief();
    const again = store.getState().copyBrief(); // c pressed twice: one copy
    await flush();
    expect(store.getState().copyStatus).toBe('Preparing the brief for Hermes Agent; it is copied when ready…');
    expect(copied).toEqual([]);

    held.open(brief('claude:s0', 'hermes'));
    await expect(copy).resolves.toBe(true);
    await expect(again).resolves.toBe(true);
    expect(copied).toEqual(['brief claude:s0 for hermes as md']);
    expect(store.getState().copyStatus).toBeNull();
    expect(store.getState().notices.map((n) => n.message)).toEqual(['Copied the brief (12 tokens, for Hermes Agent).']);
    expect(briefCalls(transport)).toEqual([['claude:s0', 'codex'], ['claude:s0', 'hermes']]); // no extra request
  });

  it('copies the target chosen at the press even when the target changes while it waits', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    const held = gate<BriefResult>();
    transport.respond('generateBrief', (input) => (input.target === 'claude' ? held.promise : brief(input.session, input.target)));
    store.getState().openPreview('codex:s1');
    store.getState().setTarget('claude');
    const copy = store.getState().copyBrief();
    store.getState().setTarget('hermes');
    await whenState(store, (s) => s.brief?.target === 'hermes');
    held.open(brief('codex:s1', 'claude'));
    await expect(copy).resolves.toBe(true);
    expect(copied).toEqual(['brief codex:s1 for claude as md']);
  });

  it('says why when the brief cannot be built, instead of copying nothing silently', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    const held = gate<BriefResult>();
    transport.respond('generateBrief', () => held.promise);
    store.getState().openPreview('claude:s0');
    const copy = store.getState().copyBrief();
    transport.respond('generateBrief', () => {
      throw new Error('transcript unreadable');
    });
    held.fail(new Error('transcript unreadable'));
    await expect(copy).resolves.toBe(false);
    expect(copied).toEqual([]);
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', message: 'Could not build the brief: transcript unreadable' });
    expect(store.getState().copyStatus).toBeNull();
  });

  it('from the list, tells the user when no session is selected', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    transport.respond('search', () => []);
    store.getState().setQuery('nothing matches');
    await expect(store.getState().copyBrief()).resolves.toBe(false);
    expect(copied).toEqual([]);
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'warning', message: 'No session is selected: nothing to copy.' });
  });
});

describe('actions typed while a search runs', () => {
  it('copy, arrow keys and Enter act on the results of the search, not on the rows it replaces', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    const held = gate<SearchHit[]>();
    transport.respond('search', () => held.promise);
    store.getState().setQuery('shopping');
    const copy = store.getState().copyBrief();
    store.getState().moveCursor(1);
    store.getState().openPreview();
    await flush();
    expect(store.getState().view).toBe('list'); // nothing opened from the old rows
    expect(copied).toEqual([]);

    held.open(hits(['hermes:s2', 'claude:s3', 'codex:s1']));
    await expect(copy).resolves.toBe(true);
    expect(copied).toEqual(['brief hermes:s2 for codex as md']); // the top result, at the press
    await whenState(store, (s) => s.view === 'preview');
    expect(store.getState().rows[store.getState().cursor]?.id).toBe('claude:s3'); // ↓ applied to the results
    expect(store.getState().previewId).toBe('claude:s3');
  });
});

describe('a background refresh of the search keeps the user’s pick', () => {
  it('re-running the same search (its sessions changed) keeps the selection; a new query starts at the top', async () => {
    const { store, transport } = setup();
    await started(store);
    transport.respond('search', () => hits(['hermes:s2', 'claude:s3', 'codex:s1']));
    store.getState().setQuery('shopping');
    await whenState(store, (s) => s.hits !== null && !s.searchPending);
    store.getState().moveCursor(1);
    expect(store.getState().selectedId).toBe('claude:s3');
    // An agent wrote a transcript: the list reloads and the search runs again.
    transport.emit({ type: 'sessions-changed', sessionIds: ['codex:s1'] });
    await whenState(store, () => transport.calls.filter((c) => c.method === 'search').length === 2);
    await flush();
    expect(store.getState().selectedId).toBe('claude:s3');
    expect(store.getState().rows[store.getState().cursor]?.id).toBe('claude:s3');
    // A different query: its results start at the top.
    transport.respond('search', () => hits(['codex:s1', 'claude:s3']));
    store.getState().setQuery('shopping list');
    await whenState(store, (s) => s.query === 'shopping list' && !s.searchPending && s.hits?.length === 2);
    expect(store.getState().selectedId).toBe('codex:s1');
  });
});

describe('briefs wait for the first settings load', () => {
  it('a preview opened before the settings arrive gets the default target, budget and redaction', async () => {
    const { store, transport } = setup();
    const held = gate<SettingsView>();
    transport.respond('getSettings', () => held.promise);
    store.getState().init();
    await whenState(store, (s) => s.sessions.length === sessions.length);
    store.getState().openPreview('claude:s0');
    await flush();
    expect(briefCalls(transport)).toEqual([]);
    held.open(settingsView({ redact: false }));
    await whenState(store, (s) => s.brief !== null && !s.briefLoading);
    expect(transport.calls.filter((c) => c.method === 'generateBrief').map((c) => c.input)).toEqual([
      { session: 'claude:s0', target: 'codex', format: 'md', budget: 4000, redact: false },
    ]);
    expect(store.getState().brief?.target).toBe('codex');
  });

  it('a budget changed elsewhere regenerates the brief on screen', async () => {
    const { store, transport } = setup();
    await started(store);
    store.getState().openPreview('claude:s0');
    await whenState(store, (s) => s.brief !== null && !s.briefLoading);
    transport.respond('getSettings', () => settingsView({ briefBudget: 9000 }));
    transport.emit({ type: 'settings-changed' });
    await whenState(store, () => transport.calls.filter((c) => c.method === 'generateBrief').length === 2);
    expect(transport.calls.filter((c) => c.method === 'generateBrief').at(-1)?.input.budget).toBe(9000);
  });
});

describe('answers applied in the order asked', () => {
  it('a slow settings load does not undo a newer save', async () => {
    const { store, transport } = setup();
    await started(store);
    const slowLoad = gate<SettingsView>();
    transport.respond('getSettings', () => slowLoad.promise);
    transport.respond('updateSettings', () => settingsView({ theme: 'dark' }));
    store.getState().setView('settings'); // loads the settings again
    transport.respond('mcpInfo', () => ({ url: 'u', port: 1, token: 't' }));
    await expect(store.getState().updateSettings({ theme: 'dark' })).resolves.toBe(true);
    slowLoad.open(settingsView({ theme: 'light' }));
    await whenState(store, (s) => !s.settingsLoading);
    expect(store.getState().settingsView?.settings.theme).toBe('dark');
  });

  it('a slow source status (asked before a store path changed) does not replace the newer one', async () => {
    const { store, transport } = setup();
    const slow = gate<unknown>();
    transport.respond('sourceStatus', () => slow.promise);
    const before = store.getState().refreshSources();
    const after = [{ agent: 'claude', state: 'ok', roots: ['/empty'], sessions: 0, lastError: null }];
    transport.respond('sourceStatus', () => after);
    await store.getState().refreshSources();
    slow.open([{ agent: 'claude', state: 'ok', roots: ['/h/.claude/projects'], sessions: 5, lastError: null }]);
    await before;
    expect(store.getState().sources).toEqual(after);
  });

  it('a slow MCP info load does not bring back the token just replaced', async () => {
    const { store, transport } = setup();
    const slowInfo = gate<McpInfo>();
    transport.respond('mcpInfo', () => slowInfo.promise);
    transport.respond('regenerateToken', () => ({ url: 'u', port: 1, token: 'new' }));
    const load = store.getState().loadMcp();
    await store.getState().regenerateToken();
    slowInfo.open({ url: 'u', port: 1, token: 'old' });
    await load;
    expect(store.getState().mcp?.token).toBe('new');
  });

  it('a brief load still out when a restore is confirmed does not replace the restored brief', async () => {
    const { store, transport, copied } = setup();
    await started(store);
    const restored = (confirmed: boolean): RestoreResult => ({
      sessionId: 'claude:s0',
      checkpoint: null,
      drift: null,
      summary: 'No drift',
      brief: confirmed ? { ...brief('claude:s0', 'codex'), text: 'restored brief' } : null,
    });
    transport.respond('restore', (input) => restored(input.confirmed === true));
    store.getState().openPreview('claude:s0');
    await whenState(store, (s) => s.brief !== null && !s.briefLoading);
    await store.getState().startRestore();
    const held = gate<BriefResult>();
    transport.respond('generateBrief', () => held.promise);
    void store.getState().loadBrief(); // e.g. after a checkpoint
    await store.getState().confirmRestore();
    held.open(brief('claude:s0', 'codex'));
    await flush();
    expect(store.getState().brief?.text).toBe('restored brief');
    await store.getState().copyBrief();
    expect(copied).toEqual(['restored brief']);
  });
});

describe('Open in', () => {
  it('follows the target, defaults to another agent than the session’s own, and waits for the session', async () => {
    const { store, transport } = setup();
    await started(store);
    const opened: unknown[] = [];
    transport.respond('openInAgent', (input) => (opened.push(input.target), { launched: true, command: 'x', error: null }));
    const held = gate<unknown>();
    transport.respond('getSession', () => held.promise);
    store.getState().setTarget('generic');
    // A search hit without details: the session's agent is not known yet.
    transport.respond('search', () => hits(['claude:s9']));
    store.getState().openPreview('claude:s9');
    const open = store.getState().openInAgent();
    await flush();
    expect(opened).toEqual([]);
    held.open(makeSession('claude:s9'));
    await open;
    expect(opened).toEqual(['codex']); // not back into Claude, where the session already is

    transport.respond('getSession', (input) => sessions.find((s) => s.id === input.session));
    store.getState().setOpenAgent('pi');
    await store.getState().openInAgent();
    store.getState().setTarget('hermes'); // the picked agent gives way to the new target
    await store.getState().openInAgent();
    expect(opened).toEqual(['codex', 'pi', 'hermes']);
  });
});

describe('selection sync carries the target', () => {
  it('sends the target with the previewed session at once, so the hotkey copies what Copy would', async () => {
    const { store, transport } = setup();
    await started(store);
    const sent = () => transport.calls.filter((c) => c.method === 'setSelection').map((c) => c.input);
    store.getState().openPreview('codex:s1');
    expect(sent()).toEqual([{ session: 'codex:s1', target: 'codex' }]);
    store.getState().setTarget('claude');
    expect(sent().at(-1)).toEqual({ session: 'codex:s1', target: 'claude' });
  });
});

describe('Enter during a search that is then cleared', () => {
  it('opens nothing: the rows the user pressed Enter on are gone', async () => {
    const { store, transport } = setup();
    await started(store);
    const held = gate<SearchHit[]>();
    transport.respond('search', () => held.promise);
    store.getState().setQuery('shopping');
    store.getState().openPreview();
    store.getState().setQuery('');
    held.open(hits(['hermes:s2']));
    await flush();
    expect(store.getState().view).toBe('list');
  });
});
