import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, fixturesDir, makeFixtureHome, makeTempDir, type FixtureHome } from '../../../../testing/fixture-home.js';
import { createOpenCodeAdapter } from './index.js';
import { readUnit as readAll } from '../../../../testing/read-unit.js';
import { replayCrashes } from '../../../../testing/resume-check.js';
import { cloneMismatches } from '../../../../testing/clone-check.js';
import { cloneSqlite } from '../../../../bench/corpus.js';


describe('OpenCode adapter on the real fixture store', () => {
  let fh: FixtureHome;
  let dataDir: string;
  let dbFile: string;
  beforeEach(() => {
    fh = makeFixtureHome();
    dataDir = path.join(fh.home, '.local/share/opencode');
    dbFile = path.join(dataDir, 'opencode.db');
  });
  afterEach(() => fh.cleanup());

  it('recovers every expected OpenCode session exactly', async () => {
    const adapter = createOpenCodeAdapter([dataDir]);
    const units = await adapter.listUnits();
    expect(units.map((u) => u.path)).toEqual([dbFile]);
    const { batches, diagnostics } = await readAll(adapter, units[0]!, null);
    expect(diagnostics).toEqual([]);
    const sessions = new Map(batches.flatMap((b) => b.sessions).map((s) => [s.id, s]));
    const expected = expectedSessions().filter((e) => e.agent === 'opencode');
    expect(expected.length).toBe(5);
    expect(sessions.size).toBe(expected.length);
    for (const e of expected) {
      const s = sessions.get(`opencode:${e.id}`);
      expect(s, e.id).toBeDefined();
      expect({
        nativeId: s!.nativeId, cwd: s!.cwd, gitBranch: s!.gitBranch, firstPrompt: s!.firstPrompt,
        userTurns: s!.userTurns, toolNames: [...s!.toolNames].sort(), title: s!.title, parentId: s!.parentId,
      }).toEqual({
        nativeId: e.id, cwd: e.cwd, gitBranch: e.gitBranch, firstPrompt: e.firstPrompt,
        userTurns: e.userTurns, toolNames: [...e.toolNames].sort(), title: e.title, parentId: e.parentId,
      });
    }
    const multi = sessions.get('opencode:ses_dfea78e19ffeGOe4E5h8tUPM11')!;
    expect(multi.toolNames).toEqual(['bash', 'write']); // first-use order
    expect(multi.usage.input).toBe(14002);
    const messages = batches.flatMap((b) => b.messages).filter((m) => m.sessionId === multi.id);
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i));
    expect(messages.length).toBe(multi.messageCount);
    const write = messages.find((m) => m.kind === 'tool_call' && m.toolName === 'write')!;
    expect(JSON.parse(write.text)).toMatchObject({ filePath: '/home/ana/projects/demo-app/NOTES.md' });
    const bash = messages.find((m) => m.kind === 'tool_call' && m.toolName === 'bash')!;
    expect(JSON.parse(bash.text)).toMatchObject({ command: 'ls -la' });
    const result = messages.find((m) => m.kind === 'tool_result' && m.toolCallId === bash.toolCallId)!;
    expect(result.text).toContain('README.md');
    expect(messages.filter((m) => m.kind === 'thinking').length).toBe(5); // one per assistant message
    expect(batches.reduce((n, b) => n + b.bytesRead, 0)).toBeGreaterThan(10_000);
    const status = adapter.status();
    expect(status).toMatchObject({ agent: 'opencode', state: 'ok', sessions: 5, filesRead: 1, lastError: null });
  });

  it('reads incrementally: nothing new, an inserted part, an in-place UPDATE, a deleted session', async () => {
    const adapter = createOpenCodeAdapter([dataDir]);
    const [unit] = await adapter.listUnits();
    const first = await readAll(adapter, unit!, null);
    const before = first.batches.flatMap((b) => b.messages).filter((m) => m.sessionId === 'opencode:ses_dfea733a5ffejl9rG2UkNbLHH7');

    const idle = await readAll(adapter, unit!, first.cursor);
    expect(idle.batches).toEqual([]);

    // Simulate the agent: a read-write connection on the COPY appends a message and a text part.
    const sid = 'ses_dfea733a5ffejl9rG2UkNbLHH7';
    const writer = new Database(dbFile);
    const now = 1795319999000;
    writer.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run(
      'msg_zzzz_new', sid, now, now, JSON.stringify({ role: 'user', time: { created: now } }),
    );
    writer.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').run(
      'prt_zzzz_new', 'msg_zzzz_new', sid, now, now, JSON.stringify({ type: 'text', text: 'And what about bread?' }),
    );
    const inserted = await readAll(adapter, unit!, first.cursor);
    const touched = inserted.batches.flatMap((b) => b.sessions).map((s) => s.id);
    expect(touched).toEqual([`opencode:${sid}`]);
    expect(inserted.batches.flatMap((b) => b.resetSessions)).toEqual([`opencode:${sid}`]);
    const after = inserted.batches.flatMap((b) => b.messages);
    expect(after.slice(0, before.length)).toEqual(before); // seq and content stable
    expect(after[after.length - 1]).toMatchObject({ seq: before.length, role: 'user', text: 'And what about bread?' });
    expect(inserted.batches[0]!.sessions[0]!.userTurns).toBe(2);

    // A streaming UPDATE in place: same row, new text, bumped time_updated.
    writer.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(
      JSON.stringify({ type: 'text', text: 'And what about bread and butter?' }), now + 5, 'prt_zzzz_new',
    );
    const updated = await readAll(adapter, unit!, inserted.cursor);
    expect(updated.batches.flatMap((b) => b.sessions).map((s) => s.id)).toEqual([`opencode:${sid}`]);
    expect(updated.batches.flatMap((b) => b.messages).at(-1)).toMatchObject({ seq: before.length, text: 'And what about bread and butter?' });

    // The user deletes a session in OpenCode.
    const gone = 'ses_dfea74556ffedPhnXzEoopOUt8';
    writer.prepare('DELETE FROM part WHERE session_id = ?').run(gone);
    writer.prepare('DELETE FROM message WHERE session_id = ?').run(gone);
    writer.prepare('DELETE FROM session WHERE id = ?').run(gone);
    const deleted = await readAll(adapter, unit!, updated.cursor);
    expect(deleted.batches.flatMap((b) => b.goneSessions)).toEqual([`opencode:${gone}`]);
    expect(deleted.batches.flatMap((b) => b.sessions)).toEqual([]);
    writer.close();
    expect(await readAll(adapter, unit!, deleted.cursor).then((r) => r.batches)).toEqual([]);
  });

  it('a rename that leaves time_updated alone (the TUI rename) re-delivers the session with its new title', async () => {
    const adapter = createOpenCodeAdapter([dataDir]);
    const [unit] = await adapter.listUnits();
    const first = await readAll(adapter, unit!, null);
    const sid = 'ses_dfea733a5ffejl9rG2UkNbLHH7';
    const writer = new Database(dbFile);
    writer.prepare('UPDATE session SET title = ? WHERE id = ?').run('Bread, renamed', sid);
    writer.close();
    const renamed = await readAll(adapter, unit!, first.cursor);
    expect(renamed.sessions.map((s) => [s.id, s.title])).toEqual([[`opencode:${sid}`, 'Bread, renamed']]);
    // Same messages, same seqs: only the title moved.
    const messagesOf = (r: typeof first) => r.batches.flatMap((b) => b.messages).filter((m) => m.sessionId === `opencode:${sid}`);
    expect(messagesOf(renamed)).toEqual(messagesOf(first));
    expect(await readAll(adapter, unit!, renamed.cursor).then((r) => r.batches)).toEqual([]);
  });

  it('bounds batches and resumes an interrupted delivery from the cursor', async () => {
    const adapter = createOpenCodeAdapter([dataDir], { maxBatchMessages: 10 });
    const [unit] = await adapter.listUnits();
    const { batches } = await readAll(adapter, unit!, null);
    expect(batches.length).toBeGreaterThan(5);
    for (const b of batches) expect(b.messages.length).toBeLessThanOrEqual(10);
    // The 17-message session is split; only its first chunk resets, seq runs on.
    const id = 'opencode:ses_dfea78e19ffeGOe4E5h8tUPM11';
    const chunks = batches.filter((b) => b.messages.some((m) => m.sessionId === id));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flatMap((b) => b.resetSessions).filter((s) => s === id)).toHaveLength(1);
    expect(chunks.flatMap((b) => b.messages).filter((m) => m.sessionId === id).map((m) => m.seq)).toEqual([...Array(17).keys()]);

  });

  it('reads a store of many sessions across query chunks and small batches, each clone as its original', async () => {
    cloneSqlite(path.join(fixturesDir(), 'home', '.local', 'share', 'opencode', 'opencode.db'), dbFile, 40, [
      { table: 'session', idCols: ['id', 'parent_id', 'slug'] },
      { table: 'message', idCols: ['id', 'session_id'] },
      { table: 'part', idCols: ['id', 'message_id', 'session_id'] },
    ]);
    // Small batches (a chunk per load) and the default (several chunks per load).
    for (const maxBatchMessages of [7, undefined]) {
      const adapter = createOpenCodeAdapter([dataDir], { maxBatchMessages });
      const [unit] = await adapter.listUnits();
      const { batches, diagnostics } = await readAll(adapter, unit!, null);
      expect(diagnostics).toEqual([]);
      expect(cloneMismatches(batches)).toEqual({ sessions: 5 * 41, mismatches: [] });
    }
  });

  it('saves its cursor every few batches, and a crash after any batch resumes to the same index', async () => {
    const adapter = createOpenCodeAdapter([dataDir], { maxBatchMessages: 2 });
    const [unit] = await adapter.listUnits();
    const cold = await replayCrashes(adapter, unit!);
    expect(cold.batches.filter((b) => b.cursor !== undefined).length).toBeLessThanOrEqual(cold.batches.length / 2);
    expect(cold.batches.at(-1)!.cursor).toBeDefined();
    for (const state of cold.resumed) expect(state).toEqual(cold.reference);

    // An incremental read (new messages in three sessions) resumes the same way.
    const writer = new Database(dbFile);
    const sessions = writer.prepare('SELECT id FROM session ORDER BY id LIMIT 3').pluck().all() as string[];
    let now = 1795319999000;
    for (const sid of sessions) {
      for (let i = 0; i < 12; i++) {
        now++;
        writer.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run(
          `msg_zz_${sid}_${i}`, sid, now, now, JSON.stringify({ role: 'user', time: { created: now } }),
        );
        writer.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').run(
          `prt_zz_${sid}_${i}`, `msg_zz_${sid}_${i}`, sid, now, now, JSON.stringify({ type: 'text', text: `more ${i}` }),
        );
      }
    }
    const cursor = cold.batches.findLast((b) => b.cursor !== undefined)!.cursor!;
    const warm = await replayCrashes(adapter, unit!, cursor);
    expect(warm.batches.filter((b) => b.cursor !== undefined).length).toBeGreaterThan(1);
    for (const state of warm.resumed) expect(state).toEqual(warm.reference);

    // Rows rewritten in place (a streaming reply): found by time_updated alone, counts unchanged.
    for (const sid of sessions) {
      now++;
      writer.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify({ type: 'text', text: 'edited' }), now, `prt_zz_${sid}_0`);
    }
    writer.close();
    const edited = await replayCrashes(adapter, unit!, warm.batches.at(-1)!.cursor!);
    expect(edited.batches.filter((b) => b.cursor !== undefined).length).toBeGreaterThan(1);
    expect(edited.reference.filter((line) => line.endsWith(':edited'))).toHaveLength(3);
    for (const state of edited.resumed) expect(state).toEqual(edited.reference);
  });

  it('honours an explicit OPENCODE_DB file as first root', async () => {
    const other = path.join(dataDir, 'custom-name.sqlite');
    for (const s of ['', '-wal', '-shm']) fs.copyFileSync(dbFile + s, other + s);
    const adapter = createOpenCodeAdapter([other, dataDir]);
    expect((await adapter.listUnits()).map((u) => u.path)).toEqual([other, dbFile]);
  });
});

describe('OpenCode legacy storage/ JSON tree', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  function write(rel: string, value: unknown): void {
    const file = path.join(tmp.dir, 'storage', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
  }

  it('reads sessions, messages and parts, then only what changed', async () => {
    write('session/proj1/ses_b.json', { id: 'ses_b', projectID: 'proj1', directory: '/w/app', title: 'Old one', parentID: 'ses_a', version: '1.0.0', time: { created: 1700000000000, updated: 1700000005000 } });
    write('message/ses_b/msg_1.json', { id: 'msg_1', sessionID: 'ses_b', role: 'user', time: { created: 1700000001000 } });
    write('part/msg_1/prt_1.json', { id: 'prt_1', messageID: 'msg_1', sessionID: 'ses_b', type: 'text', text: 'fix the build' });
    write('message/ses_b/msg_2.json', { id: 'msg_2', sessionID: 'ses_b', role: 'assistant', modelID: 'm', providerID: 'p', time: { created: 1700000002000 }, tokens: { input: 5, output: 7, reasoning: 0, cache: { read: 1, write: 2 } } });
    write('part/msg_2/prt_2.json', { id: 'prt_2', messageID: 'msg_2', type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'error', input: { command: 'npm run build' }, error: 'exit 1' } });
    write('session/proj1/ses_c.json', { id: 'ses_c', projectID: 'proj1', directory: '/w/app', title: 'Broken', time: { created: 1700000000000 } });
    write('message/ses_c/msg_9.json', '{"id": "msg_9", "role": "us'); // half-written → reported, skipped

    const adapter = createOpenCodeAdapter([tmp.dir]);
    const units = await adapter.listUnits();
    expect(units.map((u) => u.path)).toEqual([path.join(tmp.dir, 'storage')]);
    const first = await readAll(adapter, units[0]!, null);
    const sessions = first.batches.flatMap((b) => b.sessions);
    const b = sessions.find((s) => s.id === 'opencode:ses_b')!;
    expect(b).toMatchObject({ cwd: '/w/app', title: 'Old one', parentId: 'opencode:ses_a', firstPrompt: 'fix the build', userTurns: 1, toolNames: ['bash'], model: 'p/m' });
    expect(b.usage).toEqual({ input: 5, output: 7, cacheRead: 1, cacheWrite: 2, reasoning: 0, lastRequest: { input: 5, cacheRead: 1, cacheWrite: 2 } });
    const msgs = first.batches.flatMap((x) => x.messages).filter((m) => m.sessionId === 'opencode:ses_b');
    expect(msgs.map((m) => [m.kind, m.text, m.isError])).toEqual([
      ['text', 'fix the build', false],
      ['tool_call', '{"command":"npm run build"}', false],
      ['tool_result', 'exit 1', true],
    ]);
    expect(first.diagnostics.some((d) => d.message.includes('msg_9.json'))).toBe(true);

    expect((await readAll(adapter, units[0]!, first.cursor)).batches).toEqual([]);
    write('part/msg_1/prt_3.json', { id: 'prt_3', messageID: 'msg_1', type: 'text', text: 'please', synthetic: true });
    const next = await readAll(adapter, units[0]!, first.cursor);
    expect(next.batches.flatMap((x) => x.sessions).map((s) => s.id)).toEqual(['opencode:ses_b']);
    fs.rmSync(path.join(tmp.dir, 'storage/session/proj1/ses_b.json'));
    const gone = await readAll(adapter, units[0]!, next.cursor);
    expect(gone.batches.flatMap((x) => x.goneSessions)).toEqual(['opencode:ses_b']);
  });
});
