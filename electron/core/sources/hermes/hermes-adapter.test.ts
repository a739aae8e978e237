import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, fixturesDir, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { createHermesAdapter } from './index.js';
import { readUnit as readAll } from '../../../../testing/read-unit.js';
import { replayCrashes } from '../../../../testing/resume-check.js';
import { cloneMismatches } from '../../../../testing/clone-check.js';
import { cloneSqlite } from '../../../../bench/corpus.js';


describe('Hermes adapter on the real fixture store', () => {
  let fh: FixtureHome;
  let root: string;
  let dbFile: string;
  beforeEach(() => {
    fh = makeFixtureHome();
    root = path.join(fh.home, '.hermes');
    dbFile = path.join(root, 'state.db');
  });
  afterEach(() => fh.cleanup());

  it('recovers every expected Hermes session exactly', async () => {
    const adapter = createHermesAdapter([root]);
    const units = await adapter.listUnits();
    expect(units.map((u) => u.path)).toEqual([dbFile]);
    const { batches, diagnostics } = await readAll(adapter, units[0]!, null);
    expect(diagnostics).toEqual([]);
    const sessions = new Map(batches.flatMap((b) => b.sessions).map((s) => [s.id, s]));
    const expected = expectedSessions().filter((e) => e.agent === 'hermes');
    expect(expected.length).toBe(4);
    expect(sessions.size).toBe(4);
    for (const e of expected) {
      const s = sessions.get(`hermes:${e.id}`);
      expect(s, e.id).toBeDefined();
      expect({
        nativeId: s!.nativeId, cwd: s!.cwd, gitBranch: s!.gitBranch, firstPrompt: s!.firstPrompt,
        userTurns: s!.userTurns, toolNames: [...s!.toolNames].sort(), title: s!.title, parentId: s!.parentId,
      }).toEqual({
        nativeId: e.id, cwd: e.cwd, gitBranch: e.gitBranch, firstPrompt: e.firstPrompt,
        userTurns: e.userTurns, toolNames: [...e.toolNames].sort(), title: e.title, parentId: e.parentId,
      });
    }
    // expected.json lists tools sorted; the model wants first-use order (terminal ran first).
    expect(sessions.get('hermes:20261122_034250_3252cb')!.toolNames).toEqual(['terminal', 'read_file']);
    const s1 = sessions.get('hermes:20261122_034250_3252cb')!;
    expect(s1.usage).toEqual({ input: 964, output: 413, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s1.model).toBe('anthropic/claude-sonnet-4.5');
    const msgs = batches.flatMap((b) => b.messages).filter((m) => m.sessionId === s1.id);
    expect(msgs.map((m) => m.seq)).toEqual(msgs.map((_, i) => i));
    const call = msgs.find((m) => m.kind === 'tool_call' && m.toolName === 'terminal')!;
    expect(JSON.parse(call.text)).toEqual({ command: 'git status' });
    const result = msgs.find((m) => m.kind === 'tool_result' && m.toolCallId === call.toolCallId)!;
    expect(result).toMatchObject({ role: 'tool', toolName: 'terminal', isError: false });
    expect(result.text).toContain('On branch feature/greeting-punctuation');
    expect(adapter.status()).toMatchObject({ state: 'ok', sessions: 4, messages: 38, lastError: null });
  });

  it('appends new rows, re-emits updated sessions, resets rewritten ones, reports deleted ones', async () => {
    const adapter = createHermesAdapter([root]);
    const [unit] = await adapter.listUnits();
    const first = await readAll(adapter, unit!, null);
    expect((await readAll(adapter, unit!, first.cursor)).batches).toEqual([]);

    const sid = '20261122_034254_fd4161';
    const before = first.batches.flatMap((b) => b.messages).filter((m) => m.sessionId === `hermes:${sid}`);
    const writer = new Database(dbFile); // the agent, writing to the COPY
    writer.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'Add eggs to it.', 1795318999.5)").run(sid);
    writer.prepare('UPDATE sessions SET message_count = message_count + 1 WHERE id = ?').run(sid);
    const appended = await readAll(adapter, unit!, first.cursor);
    expect(appended.batches.flatMap((b) => b.sessions).map((s) => s.id)).toEqual([`hermes:${sid}`]);
    expect(appended.batches.flatMap((b) => b.resetSessions)).toEqual([]);
    expect(appended.batches.flatMap((b) => b.messages)).toEqual([
      expect.objectContaining({ seq: before.length, role: 'user', text: 'Add eggs to it.', nativeId: expect.any(String) }),
    ]);
    expect(appended.batches[0]!.sessions[0]!.userTurns).toBe(2);

    // Session-only change (title renamed): the aggregate is re-emitted, no messages.
    writer.prepare("UPDATE sessions SET title = 'Shopping list' WHERE id = ?").run(sid);
    const renamed = await readAll(adapter, unit!, appended.cursor);
    expect(renamed.batches.flatMap((b) => b.sessions).map((s) => [s.id, s.title])).toEqual([[`hermes:${sid}`, 'Shopping list']]);
    expect(renamed.batches.flatMap((b) => b.messages)).toEqual([]);

    // Rewind: earlier rows deleted → full re-delivery with a reset.
    writer.prepare('DELETE FROM messages WHERE session_id = ? AND id = (SELECT min(id) FROM messages WHERE session_id = ? AND role = ?)').run(sid, sid, 'tool');
    writer.prepare('UPDATE sessions SET rewind_count = rewind_count + 1 WHERE id = ?').run(sid);
    const rewound = await readAll(adapter, unit!, renamed.cursor);
    expect(rewound.batches.flatMap((b) => b.resetSessions)).toEqual([`hermes:${sid}`]);
    const redelivered = rewound.batches.flatMap((b) => b.messages);
    expect(redelivered.map((m) => m.seq)).toEqual(redelivered.map((_, i) => i));
    expect(redelivered.some((m) => m.kind === 'tool_result')).toBe(false);

    // Deleted session.
    writer.prepare('DELETE FROM messages WHERE session_id = ?').run(sid);
    writer.prepare('DELETE FROM sessions WHERE id = ?').run(sid);
    writer.close();
    const deleted = await readAll(adapter, unit!, rewound.cursor);
    expect(deleted.batches.flatMap((b) => b.goneSessions)).toEqual([`hermes:${sid}`]);
    expect((await readAll(adapter, unit!, deleted.cursor)).batches).toEqual([]);
  });

  it('reads a newer schema: a row flagged _compressed_summary is a compaction carrier, not a prompt', async () => {
    const writer = new Database(dbFile);
    writer.exec('ALTER TABLE messages ADD COLUMN _compressed_summary INTEGER NOT NULL DEFAULT 0');
    const sid = '20261122_034254_fd4161';
    writer.prepare("INSERT INTO messages (session_id, role, content, timestamp, _compressed_summary) VALUES (?, 'user', 'Earlier: the list has milk and bread.', 1795318999.5, 1)").run(sid);
    writer.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'Add eggs to it.', 1795319000.5)").run(sid);
    writer.close();
    const adapter = createHermesAdapter([root]);
    const [unit] = await adapter.listUnits();
    const { batches, diagnostics } = await readAll(adapter, unit!, null);
    expect(diagnostics).toEqual([]);
    const session = batches.flatMap((b) => b.sessions).find((s) => s.id === `hermes:${sid}`)!;
    const expected = expectedSessions().find((e) => e.id === sid)!;
    expect(session.userTurns).toBe(expected.userTurns + 1);
    const tail = batches.flatMap((b) => b.messages).filter((m) => m.sessionId === session.id).slice(-2);
    expect(tail.map((m) => [m.role, m.text])).toEqual([
      ['system', 'Earlier: the list has milk and bread.'],
      ['user', 'Add eggs to it.'],
    ]);
  });

  it('saves its cursor every few batches, and a crash after any batch resumes to the same index', async () => {
    const adapter = createHermesAdapter([root], { maxBatchMessages: 2 });
    const [unit] = await adapter.listUnits();
    const cold = await replayCrashes(adapter, unit!);
    const withCursor = cold.batches.filter((b) => b.cursor !== undefined).length;
    expect(cold.batches.length).toBeGreaterThan(10);
    expect(withCursor).toBeLessThanOrEqual(cold.batches.length / 2);
    expect(cold.batches.at(-1)!.cursor).toBeDefined();
    for (const state of cold.resumed) expect(state).toEqual(cold.reference);

    // An incremental read (new rows in two sessions) resumes the same way.
    const writer = new Database(dbFile);
    for (const sid of ['20261122_034254_fd4161', '20261122_034250_3252cb']) {
      for (let i = 0; i < 20; i++) writer.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, 1795319000.5)").run(sid, `more ${i}`);
    }
    writer.close();
    const cursor = cold.batches.findLast((b) => b.cursor !== undefined)!.cursor!;
    const warm = await replayCrashes(adapter, unit!, cursor);
    expect(warm.batches.filter((b) => b.cursor !== undefined).length).toBeGreaterThan(1);
    for (const state of warm.resumed) expect(state).toEqual(warm.reference);
  });

  it('reads a store of many sessions across query chunks and small batches, each clone as its original', async () => {
    cloneSqlite(path.join(fixturesDir(), 'home', '.hermes', 'state.db'), dbFile, 40, [
      { table: 'sessions', idCols: ['id', 'parent_session_id', 'title'] },
      { table: 'messages', idCols: ['session_id'], dropCols: ['id'] },
    ]);
    // Small batches (a chunk per load) and the default (several chunks per load).
    for (const maxBatchMessages of [7, undefined]) {
      const adapter = createHermesAdapter([root], { maxBatchMessages });
      const [unit] = await adapter.listUnits();
      const { batches, diagnostics } = await readAll(adapter, unit!, null);
      expect(diagnostics).toEqual([]);
      expect(cloneMismatches(batches)).toEqual({ sessions: 4 * 41, mismatches: [] });
    }
  });

  it('lists per-profile stores and skips tombstoned profiles', async () => {
    for (const dir of ['profiles/work', 'profiles/.deleted/old', 'profiles/empty']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.copyFileSync(dbFile, path.join(root, 'profiles/work/state.db'));
    fs.copyFileSync(dbFile, path.join(root, 'profiles/.deleted/old/state.db'));
    const adapter = createHermesAdapter([root]);
    expect((await adapter.listUnits()).map((u) => path.relative(root, u.path))).toEqual(['state.db', path.join('profiles', 'work', 'state.db')]);
  });
});
