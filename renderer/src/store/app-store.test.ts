import { describe, expect, it } from 'vitest';
import type { BriefResult, RestoreResult, SearchHit, SettingsView } from '../../../shared/api-types.js';
import { createClient } from '../../../shared/client.js';
import { defaultSettings } from '../../../shared/settings.js';
import { createAppStore } from './app-store.js';
import { makeSession } from '../../../testing/renderer/store-test-data.js';
import { createScriptedTransport } from '../../../testing/renderer/scripted-transport.js';

const sessions = Array.from({ length: 7 }, (_, i) => makeSession(`claude:s${i}`, { cwd: i % 2 ? '/p/odd' : '/p/even' }));

function settingsView(over: Partial<ReturnType<typeof defaultSettings>> = {}): SettingsView {
  return {
    settings: { ...defaultSettings(), defaultTarget: 'codex', ...over },
    detected: { claude: ['/h/.claude/projects'], codex: [], opencode: [], hermes: [], gemini: [], qwen: [], pi: [], cline: [], kilo: [], copilot: [], continue: [], droid: [], letta: [] },
    warning: null,
    dataDir: '/h/.baton',
  };
}

function brief(session: string, target: string, text = `brief ${session} for ${target}`): BriefResult {
  return { sessionId: session, target: target as BriefResult['target'], format: 'md', text, tokens: 12, budget: 6000, redactions: {}, redacted: true, openCommand: null };
}

function setup(list = sessions) {
  const transport = createScriptedTransport();
  transport.respond('health', () => ({ ok: true, name: 'baton', version: '0', uptimeSeconds: 1, index: { phase: 'watching', sessions: list.length, currentAt: null } }));
  transport.respond('indexProgress', () => ({ phase: 'watching', filesDone: 1, filesTotal: 1, bytesDone: 1, bytesTotal: 1, currentAt: null, error: null }));
  transport.respond('sourceStatus', () => []);
  transport.respond('getSettings', () => settingsView());
  transport.respond('listSessions', (input) => {
    const offset = Number(input.offset ?? 0);
    const limit = Number(input.limit ?? 100);
    const filtered = list.filter((s) => !input.project || (s.cwd ?? '').includes(String(input.project)));
    return { sessions: filtered.slice(offset, offset + limit), total: filtered.length };
  });
  transport.respond('getSession', (input) => list.find((s) => s.id === input.session));
  transport.respond('generateBrief', (input) => brief(String(input.session), String(input.target)));
  const copied: string[] = [];
  const store = createAppStore({
    client: createClient(transport),
    transport,
    clipboard: { writeText: async (text) => void copied.push(text) },
    firstPage: 2,
    pageSize: 3,
  });
  return { store, transport, copied };
}

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not reached');
    await settle(5);
  }
}

const hitsFor = (ids: string[]): SearchHit[] =>
  ids.map((id) => ({ sessionId: id, agent: 'claude', nativeId: id.slice(7), title: null, cwd: '/p/even', seq: 0, role: 'user', snippet: `[[${id}]]`, timestamp: null, score: 1 }));

describe('app store: list', () => {
  it('loads settings and every page of sessions, small first page first', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7 && !store.getState().sessionsLoading);
    const pages = transport.calls.filter((c) => c.method === 'listSessions').map((c) => [c.input.offset, c.input.limit]);
    expect(pages).toEqual([[0, 2], [2, 3], [5, 3]]);
    const state = store.getState();
    expect(state.rows.map((r) => r.id)).toEqual(sessions.map((s) => s.id));
    expect(state.cursor).toBe(0);
    expect(state.target).toBe('codex'); // the default target from settings
  });

  it('keeps the newest search and drops a slower, older response', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    transport.respond('search', (input) => hitsFor(input.query === 'slow' ? ['claude:s1'] : ['claude:s2', 'claude:s4']), (input) => (input.query === 'slow' ? 120 : 5));
    store.getState().setQuery('slow');
    await settle(20); // the slow search is in flight
    store.getState().setQuery('fast');
    await settle(200);
    const state = store.getState();
    expect(state.query).toBe('fast');
    expect(state.rows.map((r) => r.id)).toEqual(['claude:s2', 'claude:s4']);
    expect(state.rows[0]?.firstPrompt).toBe('Prompt of claude:s2'); // joined with the session list
    expect(state.searchPending).toBe(false);

    store.getState().setQuery('');
    expect(store.getState().hits).toBeNull();
    expect(store.getState().rows).toHaveLength(7);
  });

  it('runs one search at a time and folds keystrokes typed meanwhile into one follow-up', async () => {
    const { store, transport } = setup();
    let inFlight = 0;
    let maxInFlight = 0;
    transport.respond('search', (input) => {
      inFlight--;
      return hitsFor(input.query === 'git' ? ['claude:s0'] : ['claude:s1', 'claude:s2']);
    }, () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return 30;
    });
    for (const q of ['g', 'gi', 'git']) store.getState().setQuery(q);
    await until(() => !store.getState().searchPending);
    expect(transport.calls.filter((c) => c.method === 'search').map((c) => c.input.query)).toEqual(['g', 'git']);
    expect(maxInFlight).toBe(1);
    // The stale 'g' results never showed: the list went straight to the results for 'git'.
    expect(store.getState().rows.map((r) => r.id)).toEqual(['claude:s0']);
  });

  it('drops a response that arrives after the search was cleared', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    transport.respond('search', () => hitsFor(['claude:s3']), 50);
    store.getState().setQuery('late');
    store.getState().setQuery('');
    await settle(100);
    expect(store.getState().hits).toBeNull();
    expect(store.getState().rows).toHaveLength(7);
  });

  it('reloads on sessions-changed and after reconnecting', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => !store.getState().sessionsLoading && store.getState().sessions.length === 7);
    const count = () => transport.calls.filter((c) => c.method === 'listSessions' && c.input.offset === 0).length;
    expect(count()).toBe(1);
    transport.emit({ type: 'sessions-changed', sessionIds: ['claude:s1'] });
    transport.emit({ type: 'sessions-changed', sessionIds: ['claude:s2'] });
    await until(() => count() === 2);
    await settle(400);
    expect(count()).toBe(2); // the burst folded into one reload
    transport.setConnection('disconnected');
    transport.setConnection('connected');
    await until(() => count() === 3);
    expect(store.getState().connection).toBe('connected');
  });

  it('moves the cursor within bounds and filters by project', async () => {
    const { store } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    store.getState().moveCursor(-5);
    expect(store.getState().cursor).toBe(0);
    store.getState().moveCursor(100);
    expect(store.getState().cursor).toBe(6);
    store.getState().moveCursor(-1); // claude:s5, which the filter keeps
    store.getState().setFilterProject('/p/odd');
    await until(() => store.getState().sessions.length === 3);
    expect(store.getState().rows[store.getState().cursor]?.id).toBe('claude:s5');
  });
});

describe('app store: preview', () => {
  it('opens the selected session, regenerates the brief per target and drops stale briefs', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    store.getState().moveCursor(1);
    transport.respond('generateBrief', (input) => brief(String(input.session), String(input.target)), (input) => (input.target === 'codex' ? 100 : 5));
    store.getState().openPreview();
    expect(store.getState().view).toBe('preview');
    expect(store.getState().previewId).toBe('claude:s1');
    store.getState().setTarget('hermes');
    await settle(200);
    expect(store.getState().brief?.text).toBe('brief claude:s1 for hermes');
    const briefCalls = transport.calls.filter((c) => c.method === 'generateBrief');
    expect(briefCalls.map((c) => [c.input.target, c.input.budget, c.input.redact])).toEqual([
      ['codex', 6000, true],
      ['hermes', 6000, true],
    ]);
  });

  it('copies the previewed brief, or the selected row’s brief from the list', async () => {
    const { store, copied } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    await expect(store.getState().copyBrief()).resolves.toBe(true);
    expect(copied).toEqual(['brief claude:s0 for codex']);
    store.getState().openPreview('claude:s3');
    await until(() => store.getState().brief !== null);
    await store.getState().copyBrief();
    expect(copied[1]).toBe('brief claude:s3 for codex');
    expect(store.getState().notices.at(-1)?.message).toContain('Copied the brief');
  });

  it('restores in two steps: drift, then the brief on confirm', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    const result = (confirmed: boolean): RestoreResult => ({
      sessionId: 'claude:s0',
      checkpoint: null,
      drift: { error: null, branchSwitched: { from: 'main', to: 'dev' }, commitsSince: [], filesChangedSince: [], workTreeChanged: false, now: null },
      summary: 'Branch switched',
      brief: confirmed ? brief('claude:s0', 'codex', 'restored brief') : null,
    });
    transport.respond('restore', (input) => result(input.confirmed === true));
    store.getState().openPreview('claude:s0');
    await store.getState().startRestore();
    expect(store.getState().restore.phase).toBe('drift');
    await store.getState().confirmRestore();
    expect(store.getState().restore.phase).toBe('done');
    expect(store.getState().brief?.text).toBe('restored brief');
    expect(transport.calls.filter((c) => c.method === 'restore').map((c) => c.input.confirmed)).toEqual([false, true]);
  });

  it('checkpoints with list fields from lines and refuses an empty summary', async () => {
    const { store, transport } = setup();
    transport.respond('createCheckpoint', (input) => ({ id: 'c1', ...input }));
    store.getState().openPreview('claude:s0');
    await expect(store.getState().createCheckpoint({ summary: ' ', decisions: '', nextSteps: '' })).resolves.toBe(false);
    await expect(store.getState().createCheckpoint({ summary: 'Half done', decisions: '- Use JWT\n\n- Postgres', nextSteps: '1. tests' })).resolves.toBe(true);
    expect(transport.calls.find((c) => c.method === 'createCheckpoint')?.input).toEqual({
      session: 'claude:s0',
      summary: 'Half done',
      decisions: ['Use JWT', 'Postgres'],
      nextSteps: ['tests'],
    });
  });
});

describe('app store: settings', () => {
  it('reloads sessions when a store path changes, and reports save errors', async () => {
    const { store, transport } = setup();
    store.getState().init();
    await until(() => store.getState().sessions.length === 7 && !store.getState().sessionsLoading);
    const before = transport.calls.filter((c) => c.method === 'listSessions').length;
    transport.respond('updateSettings', () => settingsView({ agents: { ...defaultSettings().agents, claude: { enabled: true, path: '/empty' } } }));
    await expect(store.getState().updateSettings({ agents: { claude: { path: '/empty' } } })).resolves.toBe(true);
    expect(store.getState().settingsView?.settings.agents.claude.path).toBe('/empty');
    await until(() => transport.calls.filter((c) => c.method === 'listSessions').length > before);

    transport.respond('updateSettings', () => {
      throw new Error('disk full');
    });
    await expect(store.getState().updateSettings({ theme: 'dark' })).resolves.toBe(false);
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', message: 'Could not save settings: disk full' });
  });

  it('hands off to an agent: saves, copies the brief, shows the opened command and the handoff status', async () => {
    const { store, transport, copied } = setup();
    const handoff = {
      id: 'h1', sessionId: 'claude:s1', idempotencyToken: null, summary: 's', decisions: [], nextSteps: [], blockers: [], itemsCompleted: [], itemsAdded: [],
      filesChanged: [], git: null, continuesFrom: null, status: 'pending' as const, createdAt: '2026-11-25T11:00:00Z', receivedAt: null, completedAt: null,
      handoff: { agent: 'codex' as const, projectDir: '/p/odd', worktreeRoot: null, expiresAt: '2026-11-26T11:00:00Z', receivedBy: null },
    };
    let listed: (typeof handoff)[] = [];
    transport.respond('listHandoffs', () => listed);
    transport.respond('handOff', () => {
      listed = [handoff];
      return { checkpoint: handoff, brief: 'HANDOFF BRIEF', hooksInstalled: true, delivery: { via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent codex', settings: 'Settings → Hooks' }, opened: { command: "cd '/p/odd' && codex", launched: true, error: null } };
    });
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    store.getState().openPreview('claude:s1');
    await until(() => transport.calls.some((c) => c.method === 'listHandoffs'));
    expect(store.getState().handoffs).toEqual([]);
    await store.getState().handOff('codex');
    expect(transport.calls.find((c) => c.method === 'handOff')?.input).toEqual({ session: 'claude:s1', target: 'codex', open: true });
    expect(copied).toContain('HANDOFF BRIEF');
    expect(store.getState().openResult?.command).toBe("cd '/p/odd' && codex");
    expect(store.getState().notices.at(-1)?.message).toMatch(/Handed off to Codex CLI: its next session in \/p\/odd receives the brief/);
    await until(() => store.getState().handoffs.length === 1);
    // The receiving session lands in the index: the status is read again.
    listed = [{ ...handoff, status: 'received' as const, handoff: { ...handoff.handoff, receivedBy: 'codex:t1' } } as unknown as typeof handoff];
    transport.emit({ type: 'sessions-changed', sessionIds: ['codex:t1'] });
    await until(() => store.getState().handoffs[0]?.status === 'received');
  });
  it('continues a session natively in another agent: calls continueSession with open, shows the command, names a newer-version warning', async () => {
    const { store, transport } = setup();
    transport.respond('continueSession', (input) => ({
      agent: input.target, session: 't-1', sessionId: `${input.target}:t-1`, source: 'claude:s1', resume: ['codex', 'resume', 't-1'], resumeCommand: "cd '/p' && codex resume t-1",
      cwd: '/p', title: 'Continued from Claude Code: x', tokens: 900, contextWindow: 258400, turns: 4, reused: false, notes: [],
      warnings: ['Codex CLI 0.170.0 is newer than 0.169.0.'], opened: { command: "cd '/p' && codex resume t-1", launched: true, error: null },
    }));
    store.getState().init();
    await until(() => store.getState().sessions.length === 7);
    store.getState().openPreview('claude:s1');
    await store.getState().continueIn('codex');
    expect(transport.calls.find((c) => c.method === 'continueSession')?.input).toEqual({ session: 'claude:s1', target: 'codex', open: true });
    expect(store.getState().openResult?.command).toBe("cd '/p' && codex resume t-1");
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'warning', message: expect.stringMatching(/Continued in Codex CLI as t-1\. Codex CLI 0\.170\.0 is newer/) });
    transport.respond('continueSession', () => {
      throw new Error('Codex CLI is not installed here');
    });
    await store.getState().continueIn('codex');
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', message: 'Could not continue in Codex CLI: Codex CLI is not installed here' });
  });
});
