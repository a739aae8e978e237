/**
 * Kilo Code through the OpenCode reader: its `kilo.db` (OpenCode 1.x tables plus an `event` log) read
 * exactly, incrementally, read-only, and at its worst (locked, corrupt, an unknown newer schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/model.js';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { readUnit as readAll } from '../../../../testing/read-unit.js';
import { defaultStoreRoots } from '../../paths.js';
import { createAgentAdapter } from '../local-adapters.js';
import { createOpenCodeAdapter } from './index.js';

const PARENT = 'ses_de4eb5730ffetjymPGbpHIvuT5';
const CHILD = 'ses_de4eb2ddaffeyiFVVqAFh23oWS';
const RESUMED = 'ses_de4ef1168ffeIbshF7QgvctV3Y';
const COMPACTED = 'ses_de4ec9e77ffeScPBF5YNMy20XV';

describe('Kilo Code adapter on the real fixture store', () => {
  let fh: FixtureHome;
  let dataDir: string;
  let dbFile: string;
  const kilo = (opts = {}) => createOpenCodeAdapter([dataDir], opts, 'kilo');
  beforeEach(() => {
    fh = makeFixtureHome();
    dataDir = path.join(fh.home, '.local/share/kilo');
    dbFile = path.join(dataDir, 'kilo.db');
  });
  afterEach(() => fh.cleanup());

  it('recovers every expected session exactly: subagent, resumes, /compact, quoted `kilo run` prompts', async () => {
    const adapter = kilo();
    expect(adapter.agent).toBe('kilo');
    const units = await adapter.listUnits();
    expect(units.map((u) => u.path)).toEqual([dbFile]);
    const { batches, diagnostics } = await readAll(adapter, units[0]!);
    expect(diagnostics).toEqual([]);
    const sessions = new Map<string, Session>(batches.flatMap((b) => b.sessions).map((s) => [s.id, s]));
    expectRecovered('kilo', sessions);
    expect(sessions.get(`kilo:${CHILD}`)!.parentKind).toBe('subagent');
    expect(sessions.get(`kilo:${PARENT}`)!.agent).toBe('kilo');
    expect(sessions.get(`kilo:${RESUMED}`)!.userTurns).toBe(3);
    // The /compact request is no prompt; its summary and the environment details are not prompts either.
    expect(sessions.get(`kilo:${COMPACTED}`)!.userTurns).toBe(3);
    const messages = batches.flatMap((b) => b.messages);
    expect(messages.every((m) => m.sessionId.startsWith('kilo:'))).toBe(true);
    expect(messages.some((m) => m.role === 'user' && m.text.includes('<environment_details>'))).toBe(false);
    // Kilo records tokens per assistant message: the session totals them.
    expect(sessions.get(`kilo:${PARENT}`)!.usage.input + sessions.get(`kilo:${PARENT}`)!.usage.output).toBeGreaterThan(0);
  });

  it('reads incrementally: nothing when unchanged, then only the session a new row touched', async () => {
    const adapter = kilo();
    const [unit] = await adapter.listUnits();
    const first = await readAll(adapter, unit!);
    const again = await readAll(adapter, unit!, first.cursor);
    expect(again.sessions).toEqual([]);

    const db = new Database(dbFile);
    db.prepare('UPDATE session SET title = ?, time_updated = time_updated + 100000 WHERE id = ?').run('Renamed in Kilo', RESUMED);
    db.close();
    const [changed] = await adapter.listUnits();
    const delta = await readAll(adapter, changed!, first.cursor);
    expect(delta.sessions.map((s) => s.id)).toEqual([`kilo:${RESUMED}`]);
    expect(delta.sessions[0]!.title).toBe('Renamed in Kilo');
  });

  it('a locked database: a clear diagnostic, no crash, and it reads once released', async () => {
    const writer = new Database(dbFile);
    writer.pragma('journal_mode = DELETE');
    writer.exec('BEGIN EXCLUSIVE');
    writer.prepare("UPDATE session SET title = title || ' (being written)'").run();
    try {
      const adapter = kilo({ busyTimeoutMs: 20, retries: 1 });
      const [unit] = await adapter.listUnits();
      const blocked = await readAll(adapter, unit!);
      expect(blocked.batches).toEqual([]);
      expect(blocked.diagnostics[0]!.message).toMatch(/locked|busy/i);
      writer.exec('COMMIT');
      const released = await readAll(adapter, unit!);
      expect(released.sessions).toHaveLength(10);
    } finally {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('a corrupt kilo.db is reported unreadable, not thrown', async () => {
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
    fs.writeFileSync(dbFile, Buffer.alloc(8192, 0x5a));
    const adapter = kilo();
    const [unit] = await adapter.listUnits();
    const res = await readAll(adapter, unit!);
    expect(res.sessions).toEqual([]);
    expect(res.diagnostics.map((d) => d.kind)).toContain('unreadable');
    expect(adapter.status().lastError).toBeTruthy();
  });

  it('an unknown newer schema (a table without time_updated) is read as far as understood and reported', async () => {
    const db = new Database(dbFile);
    db.exec('ALTER TABLE part DROP COLUMN time_updated');
    db.close();
    const adapter = kilo();
    const [unit] = await adapter.listUnits();
    const res = await readAll(adapter, unit!);
    expect(res.sessions).toHaveLength(10);
    expect(res.diagnostics.some((d) => /"part" lacks column time_updated/.test(d.message))).toBe(true);
  });

  it('reads only kilo*.db, is the default for XDG data, and never writes the store', async () => {
    const before = sha256Tree(fh.home);
    const roots = defaultStoreRoots('kilo', { env: fh.env, platform: 'linux', home: fh.home });
    expect(roots).toEqual([dataDir]);
    expect(defaultStoreRoots('kilo', { env: { XDG_DATA_HOME: '/x/data' }, platform: 'linux', home: fh.home })).toEqual(['/x/data/kilo']);
    const adapter = createAgentAdapter('kilo', roots);
    const units = await adapter.listUnits();
    expect(units.map((u) => path.basename(u.path))).toEqual(['kilo.db']);
    const res = await readAll(adapter, units[0]!);
    expect(res.sessions).toHaveLength(10);
    expect(sha256Tree(fh.home)).toEqual(before);
  });
});
