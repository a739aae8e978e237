// The contract's implementation end to end: real fixture stores → real adapters → real index.db
// → the API handlers the UI, IPC, HTTP and MCP all go through.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, parseApiInput } from '../../shared/contract.js';
import { createBatonCore, type BatonCore } from './service.js';
import { startFixtureCore } from '../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';

describe('API over the fixture stores', () => {
  let fixture: FixtureHome;
  let core: BatonCore;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists every fixture session with what the ground truth says', async () => {
    const expected = expectedSessions();
    const page = await core.api.listSessions({ limit: 1000, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      const got = page.sessions.find((s) => s.id === `${want.agent}:${want.id}`);
      expect(got, want.id).toBeDefined();
      expect(got).toMatchObject({ cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns });
      expect([...(got?.toolNames ?? [])].sort()).toEqual([...want.toolNames].sort());
    }
    const times = page.sessions.map((s) => s.updatedAt ?? '');
    expect(times).toEqual([...times].sort().reverse());
  });

  it('resolves references by id prefix and title words, and says when one is ambiguous', async () => {
    const byPrefix = await core.api.getSession({ session: 'claude:dbfcac52' });
    expect(byPrefix.nativeId).toBe('dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26');
    const ambiguous = await core.api.getSession({ session: 'todo' }).catch((err: unknown) => err);
    expect(ambiguous).toBeInstanceOf(ApiError);
    expect((ambiguous as ApiError).code).toBe('ambiguous');
    const missing = await core.api.getSession({ session: 'no such session anywhere' }).catch((err: unknown) => err);
    expect((missing as ApiError).code).toBe('not_found');
  });

  it('pages messages in order', async () => {
    const page = await core.api.getMessages({ session: 'claude:dbfcac52', offset: 0, limit: 5 });
    expect(page.total).toBeGreaterThan(5);
    expect(page.messages.map((m) => m.seq)).toEqual([...page.messages.map((m) => m.seq)].sort((a, b) => a - b));
    expect(page.messages[0]?.role).toBe('user');
  });

  it('searches across and within sessions, and never fails on hostile input', async () => {
    const hits = await core.api.search({ query: 'shopping', limit: 50 });
    expect(new Set(hits.map((h) => h.agent)).size).toBeGreaterThan(1);
    expect(hits.every((h) => h.snippet.includes('[['))).toBe(true);
    const within = await core.api.search({ query: 'todo', session: 'codex:01a20157-a468', limit: 50 });
    expect(within.length).toBeGreaterThan(0);
    expect(new Set(within.map((h) => h.sessionId))).toEqual(new Set(['codex:01a20157-a468-7552-b116-47da599ade11']));
    for (const hostile of ['"unbalanced', 'NEAR(', '*', '-', 'a:b:c', '"', '(((', 'agent:', ')']) {
      await expect(core.api.search({ query: hostile, limit: 10 })).resolves.toBeInstanceOf(Array);
    }
  });

  it('builds a brief whose goal is the first prompt', async () => {
    const brief = await core.api.generateBrief({ session: 'claude:b42c0a6e', format: 'md', redact: true, target: 'codex' });
    expect(brief.text).toContain('## Original goal');
    expect(brief.text).toContain('Please run `git status` and then read `README.md`.');
    expect(brief.tokens).toBeGreaterThan(0);
    expect(brief.openCommand).toMatch(/codex/);
  });

  it('hides excluded projects, and a store pointed elsewhere, without losing them', async () => {
    // The fixtures were recorded under /home/ana, whatever HOME is now.
    await core.api.updateSettings({ excludedProjects: ['/home/*/scratch'] });
    const visible = await core.api.listSessions({ limit: 1000, offset: 0 });
    expect(visible.sessions.some((s) => s.cwd === '/home/ana/scratch')).toBe(false);
    expect((await core.api.search({ query: 'shopping', limit: 50 })).length).toBe(0);
    await core.api.updateSettings({ excludedProjects: [] });

    const empty = path.join(fixture.home, 'empty-claude');
    fs.mkdirSync(empty);
    await core.api.updateSettings({ agents: { claude: { path: empty } } });
    await core.whenCurrent();
    expect((await core.api.listSessions({ agent: 'claude', limit: 100, offset: 0 })).total).toBe(0);
    await core.api.updateSettings({ agents: { claude: { path: null } } });
    await core.whenCurrent();
    expect((await core.api.listSessions({ agent: 'claude', limit: 100, offset: 0 })).total).toBe(5);

    await core.api.updateSettings({ agents: { hermes: { enabled: false } } });
    await core.whenCurrent();
    expect((await core.api.listSessions({ agent: 'hermes', limit: 100, offset: 0 })).total).toBe(0);
    const status = await core.api.sourceStatus({});
    expect(status.find((s) => s.agent === 'hermes')?.state).toBe('disabled');
    await core.api.updateSettings({ agents: { hermes: { enabled: true } } });
  });

  it('says per store when its most recently active session last changed (what the target picker ranks by)', async () => {
    const status = await core.api.sourceStatus({});
    for (const agent of ['claude', 'codex'] as const) {
      const { sessions } = await core.api.listSessions({ agent, limit: 1000, offset: 0 });
      const newest = sessions.map((s) => s.updatedAt).filter((t): t is string => t !== null).sort().at(-1);
      expect(newest).toBeDefined();
      expect(status.find((s) => s.agent === agent && !s.host)?.latestAt, agent).toBe(newest);
    }
  });

  it('validates store paths: counts sessions, explains empty and missing folders', async () => {
    const claudeRoot = path.join(fixture.home, '.claude');
    expect(await core.api.checkPath({ agent: 'claude', path: claudeRoot })).toMatchObject({ exists: true, readable: true, sessions: 5, error: null });
    // A copy Baton never indexed is scanned by the adapter itself.
    const copy = path.join(fixture.home, 'elsewhere', '.codex');
    fs.cpSync(path.join(fixture.home, '.codex'), copy, { recursive: true });
    expect(await core.api.checkPath({ agent: 'codex', path: copy })).toMatchObject({ sessions: 5, error: null });
    const empty = path.join(fixture.home, 'nothing-here');
    fs.mkdirSync(empty);
    const none = await core.api.checkPath({ agent: 'opencode', path: empty });
    expect(none).toMatchObject({ exists: true, sessions: 0 });
    expect(none.error).toMatch(/No sessions found/);
    expect(await core.api.checkPath({ agent: 'hermes', path: path.join(fixture.home, 'missing') })).toMatchObject({ exists: false, sessions: 0 });
    // pi: its sessions folder, its agent folder, or a flat --session-dir copy Baton never read.
    expect(await core.api.checkPath({ agent: 'pi', path: path.join(fixture.home, '.pi', 'agent', 'sessions') })).toMatchObject({ sessions: 11, error: null });
    const piFlat = path.join(fixture.home, 'pi-flat');
    fs.mkdirSync(piFlat);
    const piProject = path.join(fixture.home, '.pi', 'agent', 'sessions', '--home-ana-scratch--');
    for (const f of fs.readdirSync(piProject)) fs.copyFileSync(path.join(piProject, f), path.join(piFlat, f));
    expect(await core.api.checkPath({ agent: 'pi', path: piFlat })).toMatchObject({ sessions: 3, error: null });
    expect((await core.api.checkPath({ agent: 'pi', path: empty })).error).toMatch(/No sessions found.*--<cwd>--/);
  });

  it('stores the UI selection as a full id, clears it with null, refuses unknown sessions', async () => {
    expect(await core.api.setSelection(parseApiInput('setSelection', { session: 'claude:dbfcac52' }))).toEqual({
      session: 'claude:dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26',
    });
    expect(core.desktop.selection()).toBe('claude:dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26');
    const missing = await core.api.setSelection({ session: 'no such session anywhere' }).catch((err: unknown) => err);
    expect((missing as ApiError).code).toBe('not_found');
    expect(core.desktop.selection()).toBe('claude:dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26'); // a failed call changes nothing
    expect(await core.api.setSelection(parseApiInput('setSelection', { session: null }))).toEqual({ session: null });
    expect(core.desktop.selection()).toBeNull();
  });

  it('reports health with the index status and no private data', () => {
    const health = core.health();
    expect(health.index.sessions).toBe(expectedSessions().length);
    expect(JSON.stringify(health)).not.toContain(fixture.home);
  });
});

describe('desktop calls in headless mode (a core on an empty temp home)', () => {
  let home: string;
  let core: BatonCore;

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-api-desktop-'));
    const env = { HOME: home, BATON_HOME: path.join(home, '.baton') };
    core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: env.BATON_HOME, ingest: 'inline', watch: false, log: () => {} });
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await core.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('has no folder picker: says so instead of failing', async () => {
    expect(await core.api.pickFolder(parseApiInput('pickFolder', { title: 'Choose the Codex store folder', defaultPath: home }))).toEqual({ path: null, available: false });
    expect(await core.api.desktopStatus({})).toMatchObject({ mode: 'headless' });
  });

  it('uses the picker the desktop app registers, with the options given', async () => {
    const asked: unknown[] = [];
    core.desktop.setFolderPicker(async (options) => {
      asked.push(options);
      return path.join(home, 'picked');
    });
    try {
      expect(await core.api.pickFolder(parseApiInput('pickFolder', { title: 'Choose', defaultPath: home }))).toEqual({ path: path.join(home, 'picked'), available: true });
      expect(asked).toEqual([{ title: 'Choose', defaultPath: home }]);
    } finally {
      core.desktop.setFolderPicker(null);
    }
  });

  it('validates input: a selection must be a reference or null, unknown fields are refused', async () => {
    expect(() => parseApiInput('setSelection', {})).toThrow(ApiError);
    expect(() => parseApiInput('setSelection', { session: '' })).toThrow(/session/);
    expect(() => parseApiInput('pickFolder', { path: '/etc' })).toThrow(ApiError);
    // With no sessions at all, selecting one is a clear not_found; clearing always works.
    await expect(core.api.setSelection({ session: 'codex:abc' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await core.api.setSelection({ session: null })).toEqual({ session: null });
  });
});
