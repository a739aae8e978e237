import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { fixtureAdapters } from '../../../testing/index-support.js';
import { openIndexForWriting } from '../index/index-db.js';
import { IndexWriter } from '../index/index-writer.js';
import { StoreSync } from './store-sync.js';
import { SessionIndex } from '../index/session-index.js';

describe('StoreSync over the real fixture stores', () => {
  let home: FixtureHome;
  let dataDir: string;
  beforeEach(() => {
    home = makeFixtureHome();
    dataDir = home.env.BATON_HOME!;
  });
  afterEach(() => home.cleanup());

  function open() {
    const db = openIndexForWriting(dataDir);
    const sync = new StoreSync(new IndexWriter(db), fixtureAdapters(home.env));
    const index = new SessionIndex(dataDir);
    return { db, sync, index, close: () => (index.close(), db.close()) };
  }

  it('indexes every expected session with its aggregates, then skips unchanged units', async () => {
    const { sync, index, close } = open();
    const first = await sync.syncAll();
    expect(first.unitsRead).toBeGreaterThan(0);
    expect(first.messagesWritten).toBeGreaterThan(0);
    const agents = new Set(fixtureAdapters(home.env).map((a) => a.agent));
    for (const e of expectedSessions().filter((x) => agents.has(x.agent))) {
      const s = index.getSession(`${e.agent}:${e.id}`);
      expect(s, `${e.agent}:${e.id}`).not.toBeNull();
      expect(s!.cwd).toBe(e.cwd);
      expect(s!.userTurns).toBe(e.userTurns);
      expect([...s!.toolNames].sort()).toEqual([...e.toolNames].sort());
      expect(index.countMessages(s!.id)).toBeGreaterThan(0);
    }
    const second = await sync.syncAll();
    expect(second.unitsRead).toBe(0);
    expect(second.bytesRead).toBe(0);
    expect(second.unitsSkipped).toBe(first.unitsRead);
    close();
  });

  it('compacts the FTS index after a big pass, in steps that let other syncs run between them', async () => {
    const db = openIndexForWriting(dataDir);
    const writer = new IndexWriter(db, { messages: 1, bytes: 1 }); // a commit per batch: many FTS segments
    const sync = new StoreSync(writer, fixtureAdapters(home.env), () => {}, { compactAfterMessages: 1 });
    const index = new SessionIndex(dataDir);
    const structure = () => (db.prepare('SELECT length(block) FROM message_fts_data WHERE id = 10').pluck().get() as number);
    const queries = ['README', 'git', 'ls', 'greeting'];
    await sync.syncAll();
    // The compaction's first step waits for the next turn of the event loop: this is the bulk state.
    const bulk = structure();
    const results = queries.map((q) => index.search(q, { limit: 50 }).map((h) => `${h.sessionId}#${h.seq}`).sort());
    const appended = sync.syncPaths([]); // queued while compaction runs: served between its steps
    await Promise.all([sync.whenCompacted(), appended]);
    expect(structure()).toBeLessThan(bulk); // fewer segments listed
    expect(writer.compactStep()).toBe(false); // nothing left to merge
    expect(queries.map((q) => index.search(q, { limit: 50 }).map((h) => `${h.sessionId}#${h.seq}`).sort())).toEqual(results);
    expect(results.every((r) => r.length > 0)).toBe(true);
    expect(() => db.prepare("INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    index.close();
    db.close();
  });

  it('a one-shot pass leaves the compaction due, and the next long-running process does it', async () => {
    const db = openIndexForWriting(dataDir);
    const writer = new IndexWriter(db, { messages: 1, bytes: 1 });
    const structure = () => (db.prepare('SELECT length(block) FROM message_fts_data WHERE id = 10').pluck().get() as number);
    const oneShot = new StoreSync(writer, fixtureAdapters(home.env), () => {}, { compactAfterMessages: 1, deferCompaction: true });
    await oneShot.syncAll();
    await oneShot.whenCompacted();
    const bulk = structure();
    expect(writer.compactionDue()).toBe(true);
    expect(structure()).toBe(bulk); // nothing merged by the one-shot pass
    const running = new StoreSync(writer, fixtureAdapters(home.env), () => {}, { compactAfterMessages: 1 });
    running.compactIfDue();
    await running.whenCompacted();
    expect(structure()).toBeLessThan(bulk);
    expect(writer.compactionDue()).toBe(false);
    expect(writer.compactStep()).toBe(false);
    db.close();
  });

  it('lists newest first with totals and filters', async () => {
    const { sync, index, close } = open();
    await sync.syncAll();
    const all = index.listSessions({ limit: 1000 });
    expect(all.total).toBe(all.sessions.length);
    const times = all.sessions.map((s) => s.updatedAt ?? '');
    expect([...times].sort().reverse()).toEqual(times);
    const claude = index.listSessions({ agent: 'claude', limit: 2 });
    expect(claude.sessions).toHaveLength(2);
    expect(claude.total).toBe(expectedSessions().filter((e) => e.agent === 'claude').length);
    const demo = index.listSessions({ project: 'DEMO-app' });
    expect(demo.sessions.length).toBeGreaterThan(0);
    expect(demo.sessions.every((s) => s.cwd!.includes('demo-app'))).toBe(true);
    close();
  });

  it('keeps a deleted transcript as sourceGone, and revives it when it comes back', async () => {
    const { sync, index, close } = open();
    await sync.syncAll();
    const e = expectedSessions().find((x) => x.agent === 'claude')!;
    const id = `claude:${e.id}`;
    const file = index.getSession(id)!.sourcePath;
    const before = index.countMessages(id);
    const saved = fs.readFileSync(file);
    fs.rmSync(file);
    const gone = await sync.syncAll();
    expect(gone.unitsGone).toBe(1);
    expect(index.getSession(id)!.sourceGone).toBe(true);
    expect(index.countMessages(id)).toBe(before);
    expect(index.search(e.firstPrompt!.slice(0, 20)).some((h) => h.sessionId === id)).toBe(true);
    fs.writeFileSync(file, saved);
    await sync.syncAll();
    expect(index.getSession(id)!.sourceGone).toBe(false);
    expect(index.countMessages(id)).toBe(before);
    close();
  });

  it('pages messages by kind and role through the index', async () => {
    const { sync, index, close } = open();
    await sync.syncAll();
    const e = expectedSessions().find((x) => x.agent === 'codex' && x.userTurns >= 2)!;
    const id = `codex:${e.id}`;
    const all = index.getMessages(id);
    expect(all.map((m) => m.seq)).toEqual(all.map((_, i) => all[0]!.seq + i));
    const users = index.getMessages(id, { roles: ['user'], kinds: ['text'] });
    expect(users.length).toBe(index.countMessages(id, { roles: ['user'], kinds: ['text'] }));
    expect(users.every((m) => m.role === 'user' && m.kind === 'text')).toBe(true);
    const lastTwo = index.getMessages(id, { order: 'desc', limit: 2 });
    expect(lastTwo.map((m) => m.seq)).toEqual([all.at(-1)!.seq, all.at(-2)!.seq]);
    expect(index.getMessages(id, { offset: 1, limit: 1 })[0]).toEqual(all[1]);
    close();
  });

  it('resolves session references by id, native id, prefix and title words', async () => {
    const { sync, index, close } = open();
    await sync.syncAll();
    const codex = expectedSessions().filter((x) => x.agent === 'codex');
    const one = codex[0]!;
    expect(index.resolveSessionRef(`codex:${one.id}`)).toEqual({ status: 'found', sessionId: `codex:${one.id}` });
    expect(index.resolveSessionRef(one.id)).toEqual({ status: 'found', sessionId: `codex:${one.id}` });
    expect(index.resolveSessionRef(one.id.slice(0, 24))).toEqual({ status: 'found', sessionId: `codex:${one.id}` });
    // All codex fixture ids share the prefix 01a20157: ambiguous, with candidates.
    const amb = index.resolveSessionRef('01a20157');
    expect(amb.status).toBe('ambiguous');
    if (amb.status === 'ambiguous') expect(amb.candidates.length).toBeGreaterThan(1);
    // The same prompt was given to several agents: a title match names them all as candidates.
    const sessions = index.listSessions({ limit: 1000 }).sessions;
    const label = (s: { title: string | null; firstPrompt: string | null }) => (s.title ?? s.firstPrompt ?? '').toLowerCase();
    const shared = sessions.find((s) => sessions.filter((o) => label(o) === label(s)).length > 1)!;
    const byTitle = index.resolveSessionRef(label(shared).toUpperCase());
    expect(byTitle.status).toBe('ambiguous');
    const unique = sessions.find((s) => label(s) && sessions.filter((o) => label(o).includes(label(s))).length === 1)!;
    expect(index.resolveSessionRef(label(unique).toUpperCase())).toEqual({ status: 'found', sessionId: unique.id });
    // All words, in any order, of a label no other session contains.
    const words = label(unique).split(/\s+/).filter((w) => w.length > 3).reverse().join(' ');
    const byWords = index.resolveSessionRef(words);
    if (byWords.status === 'found') expect(byWords.sessionId).toBe(unique.id);
    else expect(byWords.status === 'ambiguous' && byWords.candidates.some((c) => c.id === unique.id)).toBe(true);
    expect(index.resolveSessionRef('no such session anywhere zzz')).toEqual({ status: 'not_found' });
    close();
  });

  it('searches with filters and safe handling of FTS syntax', async () => {
    const { sync, index, close } = open();
    await sync.syncAll();
    const hits = index.search('git status');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.snippet.includes('[[') && h.snippet.includes(']]'))).toBe(true);
    const onlyCodex = index.search('git agent:codex');
    expect(onlyCodex.length).toBeGreaterThan(0);
    expect(onlyCodex.every((h) => h.agent === 'codex')).toBe(true);
    expect(index.search('git', { agent: 'claude' }).every((h) => h.agent === 'claude')).toBe(true);
    expect(index.search('git project:nonexistent-project')).toEqual([]);
    for (const q of ['"unbalanced', 'NEAR(git', 'a:b:c', '*', '-', '"', 'git -"', 'AND OR NOT', '(((', 'col:umn "x"*']) {
      expect(() => index.search(q), q).not.toThrow();
    }
    expect(index.search("ls").length).toBeGreaterThan(0); // two-letter words are indexed words too
    close();
  });
});

describe('index.db lifecycle', () => {
  let home: FixtureHome;
  beforeEach(() => (home = makeFixtureHome()));
  afterEach(() => home.cleanup());

  for (const damage of ['random bytes', 'truncated'] as const) {
    it(`sets a corrupt index aside (${damage}) and rebuilds`, async () => {
      const dataDir = home.env.BATON_HOME!;
      const db = openIndexForWriting(dataDir);
      const sync = new StoreSync(new IndexWriter(db), fixtureAdapters(home.env));
      await sync.syncAll();
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      const file = path.join(dataDir, 'index.db');
      if (damage === 'random bytes') {
        const buf = Buffer.alloc(fs.statSync(file).size);
        for (let i = 0; i < buf.length; i++) buf[i] = (i * 7919 + 13) & 0xff;
        fs.writeFileSync(file, buf);
      } else {
        fs.truncateSync(file, Math.floor(fs.statSync(file).size / 3));
      }
      const logs: string[] = [];
      const reopened = openIndexForWriting(dataDir, { log: (_l, m) => logs.push(m) });
      expect(logs.join('\n')).toMatch(/unusable .* moved to .*index\.db\.corrupt-/);
      expect(fs.readdirSync(dataDir).some((f) => f.startsWith('index.db.corrupt-'))).toBe(true);
      const again = new StoreSync(new IndexWriter(reopened), fixtureAdapters(home.env));
      const run = await again.syncAll();
      expect(run.unitsRead).toBeGreaterThan(0);
      const index = new SessionIndex(dataDir);
      expect(index.listSessions().total).toBeGreaterThan(0);
      index.close();
      reopened.close();
    });
  }
});
