import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { fixtureAdapters } from '../../../testing/index-support.js';
import { IndexWriteLoop } from './index-write-loop.js';
import { SessionIndex } from '../index/session-index.js';

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 8000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A new Claude user record shaped like the session's own first user line. */
function userLine(file: string, text: string, n: number): string {
  const first = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => (l ? (JSON.parse(l) as Record<string, unknown>) : null))
    .find((r) => r?.type === 'user' && typeof (r.message as { content?: unknown })?.content === 'string')!;
  const rec = { ...first, uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, timestamp: new Date().toISOString(), message: { role: 'user', content: text } };
  return `${JSON.stringify(rec)}\n`;
}

describe('IndexWriteLoop: watching real files', () => {
  let home: FixtureHome;
  let live: IndexWriteLoop;
  let index: SessionIndex;
  beforeEach(async () => {
    home = makeFixtureHome();
    live = new IndexWriteLoop({ dataDir: home.env.BATON_HOME!, adapters: fixtureAdapters(home.env), debounceMs: 20, reconcileMs: 3_600_000 });
    await live.start();
    index = new SessionIndex(home.env.BATON_HOME!);
  });
  afterEach(async () => {
    index.close();
    await live.close();
    home.cleanup();
  });

  const claudeSession = () => {
    const e = expectedSessions().find((x) => x.agent === 'claude' && x.userTurns >= 2)!;
    const id = `claude:${e.id}`;
    return { id, file: index.getSession(id)!.sourcePath };
  };

  it('reports watching once current', () => {
    expect(live.sync.progress().phase).toBe('watching');
    expect(live.sync.progress().currentAt).not.toBeNull();
  });

  it('append: reads about one line, and the new text (Japanese too) is searchable', async () => {
    const { id, file } = claudeSession();
    const count = index.countMessages(id);
    const turns = index.getSession(id)!.userTurns;
    const before = { ...live.sync.counters };
    const line = userLine(file, '日本語のテキストを検索できるか確認してください', 1);
    fs.appendFileSync(file, line);
    await until('appended message', () => index.countMessages(id) === count + 1);
    expect(index.getSession(id)!.userTurns).toBe(turns + 1);
    const read = live.sync.counters.bytesRead - before.bytesRead;
    expect(read).toBeGreaterThanOrEqual(Buffer.byteLength(line));
    expect(read).toBeLessThan(Buffer.byteLength(line) + 8192);
    expect(read).toBeLessThan(fs.statSync(file).size / 4);
    expect(live.sync.counters.messagesWritten - before.messagesWritten).toBe(1);
    const hits = index.search('テキストを検索');
    expect(hits.map((h) => h.sessionId)).toContain(id);
    expect(hits[0]!.snippet).toContain('[[テキストを検索]]');
    expect(index.search('日本').map((h) => h.sessionId)).toContain(id); // two CJK characters: LIKE fallback
  });

  it('replace: a rewritten file replaces the session’s messages', async () => {
    const { id, file } = claudeSession();
    const count = index.countMessages(id);
    fs.appendFileSync(file, userLine(file, 'an aside about walruses before the rewrite', 3));
    await until('appended aside', () => index.countMessages(id) === count + 1);
    const line = userLine(file, 'a completely different conversation about zebras', 2);
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, line);
    fs.renameSync(tmp, file);
    await until('replaced session', () => index.countMessages(id) === 1);
    expect(index.getMessages(id)[0]!.text).toBe('a completely different conversation about zebras');
    expect(index.search('zebras').map((h) => h.sessionId)).toEqual([id]);
    // The replaced messages left the full-text index too, not only the messages table.
    expect(index.search('walruses')).toEqual([]);
  });

  it('truncate: a shorter file drops the messages past the cut', async () => {
    const { id, file } = claudeSession();
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const firstUser = lines.findIndex((l) => l.includes('"type":"user"'));
    fs.truncateSync(file, Buffer.byteLength(lines.slice(0, firstUser + 1).join('\n') + '\n'));
    await until('truncated session', () => index.countMessages(id) === 1);
    expect(index.getSession(id)!.userTurns).toBe(1);
  });

  it('delete: the session stays, marked sourceGone', async () => {
    const { id, file } = claudeSession();
    const count = index.countMessages(id);
    fs.rmSync(file);
    await until('gone session', () => index.getSession(id)!.sourceGone);
    expect(index.countMessages(id)).toBe(count);
    expect(index.listSessions({ agent: 'claude', limit: 100 }).sessions.some((s) => s.id === id)).toBe(true);
  });

  it('new file: a session created after start is picked up', async () => {
    const { file } = claudeSession();
    const nativeId = '11111111-2222-4333-8444-555555555555';
    const fresh = path.join(path.dirname(file), `${nativeId}.jsonl`);
    fs.writeFileSync(fresh, userLine(file, 'brand new session about quokkas', 3).replace(/"sessionId":"[^"]+"/g, `"sessionId":"${nativeId}"`));
    await until('new session', () => index.getSession(`claude:${nativeId}`));
    expect(index.search('quokkas')[0]!.sessionId).toBe(`claude:${nativeId}`);
  });

  it('SQLite stores: a row added to Hermes is read when its database changes', async () => {
    const dbFile = path.join(home.home, '.hermes', 'state.db');
    const Database = (await import('better-sqlite3')).default;
    const w = new Database(dbFile);
    const row = w.prepare('SELECT session_id FROM messages ORDER BY id DESC LIMIT 1').get() as { session_id: string };
    const id = `hermes:${row.session_id}`;
    const count = index.countMessages(id);
    const cols = (w.prepare('PRAGMA table_info(messages)').all() as { name: string }[]).map((c) => c.name);
    const values: Record<string, unknown> = { session_id: row.session_id, role: 'user', content: 'hermes wombat question', timestamp: Date.now() / 1000 };
    const use = Object.keys(values).filter((k) => cols.includes(k));
    w.prepare(`INSERT INTO messages (${use.join(', ')}) VALUES (${use.map((k) => '@' + k).join(', ')})`).run(Object.fromEntries(use.map((k) => [k, values[k]])));
    w.close();
    await until('hermes message', () => index.countMessages(id) > count);
    expect(index.search('wombat').map((h) => h.sessionId)).toContain(id);
  });
});

describe('IndexWriteLoop: renames kept outside the transcript', () => {
  let home: FixtureHome;
  let live: IndexWriteLoop | null;
  beforeEach(() => {
    home = makeFixtureHome();
    live = null;
  });
  afterEach(async () => {
    await live?.close();
    home.cleanup();
  });

  const start = async () => {
    live = new IndexWriteLoop({ dataDir: home.env.BATON_HOME!, adapters: fixtureAdapters(home.env), debounceMs: 20, reconcileMs: 3_600_000 });
    await live.start();
  };
  const titleOf = (id: string) => {
    const index = new SessionIndex(home.env.BATON_HOME!);
    try {
      return index.getSession(id)?.title ?? null;
    } finally {
      index.close();
    }
  };
  /** What Codex's `/rename` writes: a session_index.jsonl entry and threads.name; the rollout is untouched. */
  const codexRename = async (nativeId: string, name: string) => {
    const codexHome = path.join(home.home, '.codex');
    fs.appendFileSync(path.join(codexHome, 'session_index.jsonl'), `${JSON.stringify({ id: nativeId, thread_name: name, updated_at: new Date().toISOString() })}\n`);
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(codexHome, 'state_5.sqlite'));
    db.prepare('UPDATE threads SET name = ? WHERE id = ?').run(name, nativeId);
    db.close();
  };

  it('a Codex rename reaches the index while watching, and one made while Baton was down after a restart', async () => {
    const e = expectedSessions().find((x) => x.agent === 'codex')!;
    const id = `codex:${e.id}`;
    await start();
    expect(titleOf(id)).toBe(e.title);
    await codexRename(e.id, 'Renamed while watching');
    await until('the rename while watching', () => titleOf(id) === 'Renamed while watching');
    await live!.close();
    live = null;
    await codexRename(e.id, 'Renamed while Baton was down');
    await start();
    expect(titleOf(id)).toBe('Renamed while Baton was down');
  });

  it('an OpenCode rename (title rewritten, time_updated untouched) reaches the index while watching and after a restart', async () => {
    const e = expectedSessions().find((x) => x.agent === 'opencode' && !x.parentId)!;
    const id = `opencode:${e.id}`;
    const Database = (await import('better-sqlite3')).default;
    const rename = (title: string) => {
      const db = new Database(path.join(home.home, '.local/share/opencode/opencode.db'));
      db.prepare('UPDATE session SET title = ? WHERE id = ?').run(title, e.id);
      db.close();
    };
    await start();
    expect(titleOf(id)).toBe(e.title);
    rename('Renamed in the TUI');
    await until('the rename while watching', () => titleOf(id) === 'Renamed in the TUI');
    await live!.close();
    live = null;
    rename('Renamed while Baton was down');
    await start();
    expect(titleOf(id)).toBe('Renamed while Baton was down');
  });
});

describe('IndexWriteLoop: no agent store at start', () => {
  it('becomes current at once, then indexes a store that appears later without waiting for the reconcile', async () => {
    const fixture = makeFixtureHome();
    const empty = path.join(path.dirname(fixture.home), 'empty-home');
    fs.mkdirSync(empty);
    const env: NodeJS.ProcessEnv = { ...fixture.env, HOME: empty };
    // Reconcile far away: only the watcher can find the new store.
    const live = new IndexWriteLoop({ dataDir: env.BATON_HOME!, adapters: fixtureAdapters(env), debounceMs: 20, reconcileMs: 3_600_000 });
    try {
      await live.start();
      expect(live.sync.progress().phase).toBe('watching');
      const index = new SessionIndex(env.BATON_HOME!);
      try {
        // A whole Claude project directory arrives, as the first `claude` run makes it.
        fs.cpSync(path.join(fixture.home, '.claude'), path.join(empty, '.claude'), { recursive: true });
        const expected = expectedSessions().filter((e) => e.agent === 'claude');
        await until('the new store indexed', () => index.listSessions({ agent: 'claude', limit: 500 }).sessions.length >= expected.length);
        const e = expected.find((x) => !x.isSubagent && x.firstPrompt)!;
        const word = e.firstPrompt!.split(/[^A-Za-z]+/).sort((a, b) => b.length - a.length)[0]!;
        expect(index.search(word).map((h) => h.sessionId)).toContain(`claude:${e.id}`);
      } finally {
        index.close();
      }
    } finally {
      await live.close();
      fixture.cleanup();
    }
  });
});

describe('IndexWriteLoop: FTS compaction after a one-shot pass', () => {
  it('a one-shot pass leaves it due; the next watching loop does it at start and clears it', async () => {
    const fixture = makeFixtureHome();
    const dataDir = fixture.env.BATON_HOME!;
    const due = (loop: IndexWriteLoop) => loop.db.prepare("SELECT value FROM meta WHERE key = 'fts_compaction_due'").pluck().get();
    try {
      const oneShot = new IndexWriteLoop({ dataDir, adapters: fixtureAdapters(fixture.env), watch: false, compactAfterMessages: 1 });
      await oneShot.start();
      expect(due(oneShot)).toEqual(expect.any(String));
      await oneShot.close();
      const live = new IndexWriteLoop({ dataDir, adapters: fixtureAdapters(fixture.env), debounceMs: 20, reconcileMs: 3_600_000, compactAfterMessages: 1 });
      try {
        await live.start(); // nothing changed since: only the due merge has work to do
        await live.sync.whenCompacted();
        expect(due(live)).toBeUndefined();
        expect(live.writer.compactStep()).toBe(false);
      } finally {
        await live.close();
      }
    } finally {
      fixture.cleanup();
    }
  });
});
