// OpenCode 2.x: the fixture store (1.18.33, which already has an empty session_message table whose
// foreign key points at \`session\`) upgraded as 2.0 does it — session_v2 beside the frozen 1.x tables —
// plus a database that only has the 2.x tables. The DDL is the one agent-storage-formats.md §4.4
// quotes from schema.gen.ts v2.0.15.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../../../../testing/fixture-home.js';
import { readUnit as readAll } from '../../../../testing/read-unit.js';
import { replayCrashes } from '../../../../testing/resume-check.js';
import { createOpenCodeAdapter } from './index.js';

const V2_DDL = `
CREATE TABLE IF NOT EXISTS session_v2 (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, fork_session_id text,
  fork_boundary text, slug text NOT NULL, directory text NOT NULL, path text, title text, version text NOT NULL, share_url text,
  summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, metadata text,
  cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL,
  tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL,
  revert text, permission text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL,
  time_idle integer, time_viewed integer, idle_outcome text, time_compacting integer, time_archived integer,
  time_suspended integer, resume_attempts integer DEFAULT 0 NOT NULL);
CREATE TABLE IF NOT EXISTS session_message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session_v2(id) ON DELETE CASCADE,
  type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS session_message_session_seq_idx ON session_message (session_id, seq);`;

const T = 1795400000000;

class V2Writer {
  private seq = new Map<string, number>();
  constructor(readonly db: Database.Database) {
    db.pragma('foreign_keys = OFF'); // the fixture's session_message references \`session\`
  }

  session(id: string, over: Record<string, unknown> = {}): void {
    const row = { id, project_id: 'p1', slug: id, directory: '/home/ana/projects/v2app', title: null, version: '2.0.15', time_created: T, time_updated: T, ...over };
    const cols = Object.keys(row);
    this.db.prepare(`INSERT INTO session_v2 (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
  }

  message(sessionId: string, type: string, data: Record<string, unknown>, at: number): string {
    const seq = this.seq.get(sessionId) ?? 0;
    this.seq.set(sessionId, seq + 1);
    const id = `msg_${sessionId}_${seq}`;
    this.db
      .prepare('INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, sessionId, type, seq, at, at, JSON.stringify(data));
    return id;
  }
}

/** One 2.x conversation of every row type the reader knows, plus a bookkeeping row. */
function conversation(w: V2Writer, sid: string): void {
  w.message(sid, 'user', { text: 'Add a --dry-run flag', files: [{ filename: 'src/args.ts' }], agents: [], references: [], time: { created: T + 1 } }, T + 1);
  w.message(sid, 'model-switched', { model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' } }, T + 2);
  w.message(sid, 'assistant', {
    agent: 'build',
    model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
    content: [
      { type: 'reasoning', id: 'rs_1', text: 'Find the parser first.' },
      { type: 'text', text: 'Looking at the argument parser.' },
      { type: 'tool', id: 'toolu_01', name: 'bash', state: { status: 'completed', input: { command: 'rg parseArgs' }, content: [{ type: 'text', text: 'src/args.ts:12: export function parseArgs' }], structured: {} } },
      { type: 'tool', id: 'toolu_02', name: 'edit', state: { status: 'error', input: { path: 'src/args.ts' }, error: 'file changed on disk' } },
      { type: 'tool', id: 'toolu_03', name: 'read', state: { status: 'running', input: { path: 'README.md' } } },
    ],
    finish: 'stop',
    cost: 0.012,
    tokens: { input: 812, output: 240, reasoning: 12, cache: { read: 14200, write: 1900 } },
    time: { created: T + 3, completed: T + 9 },
  }, T + 3);
  w.message(sid, 'synthetic', { sessionID: sid, text: 'The user interrupted.' }, T + 10);
  w.message(sid, 'shell', { callID: 'sh_1', command: 'git status', output: 'On branch main' }, T + 11);
  w.message(sid, 'compaction', { reason: 'auto', summary: 'Earlier: the flag was planned.' }, T + 12);
  w.message(sid, 'user', { text: 'Now write the test.', files: [], time: { created: T + 13 } }, T + 13);
}

describe('OpenCode 2.x tables', () => {
  let fh: FixtureHome;
  let dataDir: string;
  let dbFile: string;
  beforeEach(() => {
    fh = makeFixtureHome();
    dataDir = path.join(fh.home, '.local/share/opencode');
    dbFile = path.join(dataDir, 'opencode.db');
  });
  afterEach(() => fh.cleanup());

  it('reads 2.x sessions beside the 1.x ones, a migrated session once, from its 2.x rows', async () => {
    const db = new Database(dbFile);
    db.exec(V2_DDL);
    const w = new V2Writer(db);
    w.session('ses_v2_new');
    conversation(w, 'ses_v2_new');
    // A 1.x session migrated by 2.0 (same id) and continued there.
    const migrated = expectedSessions().find((e) => e.agent === 'opencode' && e.parentId === null)!;
    w.session(migrated.id, { title: 'Continued in 2.x' });
    w.message(migrated.id, 'user', { text: 'Continue where we left off.', time: { created: T + 20 } }, T + 20);
    db.close();

    const adapter = createOpenCodeAdapter([dataDir]);
    const [unit] = await adapter.listUnits();
    const { batches, diagnostics } = await readAll(adapter, unit!, null);
    expect(diagnostics).toEqual([]);
    const sessions = batches.flatMap((b) => b.sessions);
    const ids = sessions.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...expectedSessions().filter((e) => e.agent === 'opencode').map((e) => `opencode:${e.id}`), 'opencode:ses_v2_new'].sort());

    const s = sessions.find((x) => x.id === 'opencode:ses_v2_new')!;
    expect(s).toMatchObject({
      cwd: '/home/ana/projects/v2app', title: null, firstPrompt: 'Add a --dry-run flag', userTurns: 2,
      toolNames: ['bash', 'edit', 'read', 'shell'], model: 'anthropic/claude-sonnet-4-5', startedAt: new Date(T).toISOString(),
    });
    expect(s.usage).toEqual({ input: 812, output: 240, cacheRead: 14200, cacheWrite: 1900, reasoning: 12, lastRequest: { input: 812, cacheRead: 14200, cacheWrite: 1900 } });
    const msgs = batches.flatMap((b) => b.messages).filter((m) => m.sessionId === s.id);
    expect(msgs.map((m) => [m.role, m.kind, m.toolName, m.text, m.isError])).toEqual([
      ['user', 'text', null, 'Add a --dry-run flag', false],
      ['user', 'text', null, '[file: src/args.ts]', false],
      ['assistant', 'thinking', null, 'Find the parser first.', false],
      ['assistant', 'text', null, 'Looking at the argument parser.', false],
      ['assistant', 'tool_call', 'bash', '{"command":"rg parseArgs"}', false],
      ['tool', 'tool_result', 'bash', 'src/args.ts:12: export function parseArgs', false],
      ['assistant', 'tool_call', 'edit', '{"path":"src/args.ts"}', false],
      ['tool', 'tool_result', 'edit', 'file changed on disk', true],
      ['assistant', 'tool_call', 'read', '{"path":"README.md"}', false],
      ['system', 'text', null, 'The user interrupted.', false],
      ['assistant', 'tool_call', 'shell', '{"command":"git status"}', false],
      ['tool', 'tool_result', 'shell', 'On branch main', false],
      ['system', 'text', null, 'Earlier: the flag was planned.', false],
      ['user', 'text', null, 'Now write the test.', false],
    ]);
    expect(msgs.map((m) => m.seq)).toEqual(msgs.map((_, i) => i));
    expect(msgs.find((m) => m.toolName === 'bash' && m.kind === 'tool_call')!.toolCallId).toBe('toolu_01');

    const m = sessions.find((x) => x.id === `opencode:${migrated.id}`)!;
    expect(m).toMatchObject({ title: 'Continued in 2.x', firstPrompt: 'Continue where we left off.', userTurns: 1 });
    expect(batches.flatMap((b) => b.messages).filter((x) => x.sessionId === m.id)).toHaveLength(1);
  });

  it('follows 2.x rows rewritten in place, reverted, appended and deleted; crashes resume', async () => {
    const db = new Database(dbFile);
    db.exec(V2_DDL);
    const w = new V2Writer(db);
    w.session('ses_v2_new');
    conversation(w, 'ses_v2_new');
    const adapter = createOpenCodeAdapter([dataDir], { maxBatchMessages: 3 });
    const [unit] = await adapter.listUnits();
    const cold = await replayCrashes(adapter, unit!);
    for (const state of cold.resumed) expect(state).toEqual(cold.reference);
    const idle = await readAll(adapter, unit!, cold.batches.at(-1)!.cursor!);
    expect(idle.batches).toEqual([]);

    // A streaming reply rewrites its row in place: same seq, new data, later time_updated.
    db.prepare("UPDATE session_message SET data = json_set(data, '$.text', 'Now write two tests.'), time_updated = ? WHERE session_id = ? AND seq = 6").run(T + 100, 'ses_v2_new');
    const rewritten = await readAll(adapter, unit!, idle.cursor);
    expect(rewritten.batches.flatMap((b) => b.resetSessions)).toEqual(['opencode:ses_v2_new']);
    expect(rewritten.batches.flatMap((b) => b.messages).at(-1)!.text).toBe('Now write two tests.');

    // Revert deletes rows from a seq on; then the conversation goes on.
    db.prepare('DELETE FROM session_message WHERE session_id = ? AND seq >= 3').run('ses_v2_new');
    const reverted = await readAll(adapter, unit!, rewritten.cursor);
    const after = reverted.batches.flatMap((b) => b.messages);
    expect(after.map((m) => m.kind)).toEqual(['text', 'text', 'thinking', 'text', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call']);
    db.prepare('INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      'msg_again', 'ses_v2_new', 'user', 3, T + 200, T + 200, JSON.stringify({ text: 'Try again.' }),
    );
    const appended = await readAll(adapter, unit!, reverted.cursor);
    expect(appended.batches.flatMap((b) => b.messages).at(-1)).toMatchObject({ role: 'user', text: 'Try again.' });

    db.prepare('DELETE FROM session_message WHERE session_id = ?').run('ses_v2_new');
    db.prepare('DELETE FROM session_v2 WHERE id = ?').run('ses_v2_new');
    db.close();
    const deleted = await readAll(adapter, unit!, appended.cursor);
    expect(deleted.batches.flatMap((b) => b.goneSessions)).toEqual(['opencode:ses_v2_new']);
  });

  it('reads a session kept in the `session` table from its session_message rows (the fixture schema)', async () => {
    const db = new Database(dbFile);
    const w = new V2Writer(db);
    const e = expectedSessions().find((x) => x.agent === 'opencode' && x.parentId === null)!;
    conversation(w, e.id);
    db.close();
    const adapter = createOpenCodeAdapter([dataDir]);
    const [unit] = await adapter.listUnits();
    const { batches, diagnostics } = await readAll(adapter, unit!, null);
    expect(diagnostics).toEqual([]);
    const s = batches.flatMap((b) => b.sessions).find((x) => x.id === `opencode:${e.id}`)!;
    expect(s).toMatchObject({ cwd: e.cwd, firstPrompt: 'Add a --dry-run flag', userTurns: 2, toolNames: ['bash', 'edit', 'read', 'shell'] });
    expect(batches.flatMap((b) => b.sessions).filter((x) => x.id === s.id)).toHaveLength(1);
    // The other fixture sessions still come from message/part.
    const other = expectedSessions().find((x) => x.agent === 'opencode' && x.id !== e.id)!;
    expect(batches.flatMap((b) => b.sessions).find((x) => x.id === `opencode:${other.id}`)).toMatchObject({ firstPrompt: other.firstPrompt, userTurns: other.userTurns });
  });

  it('reads a database that only has the 2.x tables', async () => {
    const tmp = makeTempDir('baton-oc2-');
    try {
      const db = new Database(path.join(tmp.dir, 'opencode.db'));
      db.exec(V2_DDL);
      const w = new V2Writer(db);
      w.session('ses_only', { title: 'Only 2.x', parent_id: 'ses_parent' });
      conversation(w, 'ses_only');
      db.close();
      const adapter = createOpenCodeAdapter([tmp.dir]);
      const [unit] = await adapter.listUnits();
      const { sessions, diagnostics } = await readAll(adapter, unit!, null);
      expect(diagnostics).toEqual([]);
      expect(sessions.map((s) => [s.id, s.title, s.parentId, s.userTurns])).toEqual([['opencode:ses_only', 'Only 2.x', 'opencode:ses_parent', 2]]);
    } finally {
      tmp.cleanup();
    }
  });
});
