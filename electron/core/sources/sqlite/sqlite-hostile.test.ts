/**
 * SQLite stores at their worst: locked by a writer, an unknown schema, random bytes. Each gives a
 * clear diagnostic and never stops the other stores of the same agent from being read. And a full
 * read by every adapter leaves every byte of the fixture copy (db, -wal, -shm, JSONL) unchanged.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS, type AgentId } from '../../../../shared/model.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { createHermesAdapter } from '../hermes/index.js';
import { createOpenCodeAdapter } from '../opencode/index.js';
import { createAdapters } from '../../ingest/registry.js';
import type { JsonValue, SourceUnit } from '../types.js';
import { readUnit as readAll } from '../../../../testing/read-unit.js';


function unitAt(units: SourceUnit[], file: string): SourceUnit {
  const u = units.find((x) => x.path === file);
  if (!u) throw new Error(`no unit ${file} in ${units.map((x) => x.path).join(', ')}`);
  return u;
}

describe('hostile SQLite stores', () => {
  let fh: FixtureHome;
  let hermesRoot: string;
  let opencodeDir: string;
  beforeEach(() => {
    fh = makeFixtureHome();
    hermesRoot = path.join(fh.home, '.hermes');
    opencodeDir = path.join(fh.home, '.local/share/opencode');
    // A second, healthy Hermes store in a profile.
    fs.mkdirSync(path.join(hermesRoot, 'profiles/work'), { recursive: true });
    fs.copyFileSync(path.join(hermesRoot, 'state.db'), path.join(hermesRoot, 'profiles/work/state.db'));
  });
  afterEach(() => fh.cleanup());

  it('a database locked by a writer: retries, then a clear diagnostic; the other store still reads', async () => {
    const locked = path.join(hermesRoot, 'state.db');
    const writer = new Database(locked);
    writer.pragma('journal_mode = DELETE'); // rollback journal: an exclusive writer blocks readers
    writer.exec('BEGIN EXCLUSIVE');
    writer.prepare("UPDATE sessions SET title = title || ' (being written)'").run();
    try {
      const adapter = createHermesAdapter([hermesRoot], { busyTimeoutMs: 20, retries: 2 });
      const units = await adapter.listUnits();
      const started = Date.now();
      const blocked = await readAll(adapter, unitAt(units, locked));
      expect(Date.now() - started).toBeGreaterThanOrEqual(20 * 3); // three attempts waited out their busy timeout
      expect(blocked.batches).toEqual([]);
      expect(blocked.diagnostics).toHaveLength(1);
      expect(blocked.diagnostics[0]!.file).toBe(locked);
      expect(blocked.diagnostics[0]!.message).toMatch(/locked|busy/i);

      const healthy = await readAll(adapter, unitAt(units, path.join(hermesRoot, 'profiles/work/state.db')));
      expect(healthy.sessions).toHaveLength(4);
      const status = adapter.status();
      expect(status.state).toBe('ok');
      expect(status.lastError).toMatch(/locked|busy/i);
      expect(status.diagnostics.map((d) => d.file)).toContain(locked);

      writer.exec('COMMIT');
      const released = await readAll(adapter, unitAt(units, locked));
      expect(released.sessions).toHaveLength(4);
      for (const s of released.sessions) expect(s.title).toMatch(/ \(being written\)$/);
    } finally {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('a table without time_updated: diagnostic naming table and column, sessions still delivered', async () => {
    const db = new Database(path.join(opencodeDir, 'opencode.db'));
    db.exec('ALTER TABLE message DROP COLUMN time_updated');
    db.close();
    const adapter = createOpenCodeAdapter([opencodeDir]);
    const [unit] = await adapter.listUnits();
    const first = await readAll(adapter, unit!);
    expect(first.sessions).toHaveLength(5);
    expect(first.diagnostics.map((d) => d.message).join('\n')).toMatch(/table "message" lacks column time_updated/);
  });

  it('a table missing a required column: diagnostic naming it, no crash, state unreadable', async () => {
    const db = new Database(path.join(opencodeDir, 'opencode.db'));
    db.exec('ALTER TABLE part DROP COLUMN data');
    db.close();
    const adapter = createOpenCodeAdapter([opencodeDir]);
    const [unit] = await adapter.listUnits();
    const res = await readAll(adapter, unit!);
    expect(res.batches).toEqual([]);
    expect(res.diagnostics[0]!.message).toMatch(/table "part" lacks column\(s\) data/);
    expect(adapter.status()).toMatchObject({ state: 'unreadable', sessions: 0 });
    expect(adapter.status().lastError).toMatch(/part.*data/);
  });

  it('a file of random bytes: "not a database", the rest of the store is read', async () => {
    const junk = path.join(opencodeDir, 'opencode-broken.db');
    fs.writeFileSync(junk, crypto.randomBytes(64 * 1024));
    const hermesJunk = path.join(hermesRoot, 'state.db');
    fs.writeFileSync(hermesJunk, crypto.randomBytes(8192));

    const oc = createOpenCodeAdapter([opencodeDir]);
    const ocUnits = await oc.listUnits();
    expect(ocUnits).toHaveLength(2);
    const bad = await readAll(oc, unitAt(ocUnits, junk));
    expect(bad.batches).toEqual([]);
    expect(bad.diagnostics[0]!.message).toMatch(/not a database/);
    const good = await readAll(oc, unitAt(ocUnits, path.join(opencodeDir, 'opencode.db')));
    expect(good.sessions).toHaveLength(5);
    expect(oc.status()).toMatchObject({ state: 'ok', sessions: 5 });

    const hermes = createHermesAdapter([hermesRoot]);
    const hUnits = await hermes.listUnits();
    const hBad = await readAll(hermes, unitAt(hUnits, hermesJunk));
    expect(hBad.diagnostics[0]!.message).toMatch(/not a database/);
    const hGood = await readAll(hermes, unitAt(hUnits, path.join(hermesRoot, 'profiles/work/state.db')));
    expect(hGood.sessions).toHaveLength(4);
  });
});

function checksums(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(root, file), crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  }
  return out;
}

describe('reading never writes', () => {
  let fh: FixtureHome;
  beforeEach(() => {
    fh = makeFixtureHome();
  });
  afterEach(() => fh.cleanup());

  it('every file of the fixture copy (db, -wal, -shm, JSONL) is byte-identical after all four adapters read everything', async () => {
    const before = checksums(fh.home);
    expect([...before.keys()].filter((f) => f.endsWith('-wal') || f.endsWith('-shm')).length).toBeGreaterThanOrEqual(4);
    const enabled = { enabled: true, path: null };
    const agents = Object.fromEntries(AGENTS.map((a) => [a, enabled])) as Record<AgentId, { enabled: boolean; path: string | null }>;
    const adapters = createAdapters({ agents }, { env: fh.env, platform: process.platform, home: fh.home });
    expect(adapters.map((a) => a.agent)).toEqual([...AGENTS]);
    const sessionsPerAgent: Record<string, number> = {};
    for (const adapter of adapters) {
      const cursorByUnit = new Map<string, JsonValue | null>();
      for (let pass = 0; pass < 2; pass++) {
        for (const unit of await adapter.listUnits()) {
          const res = await readAll(adapter, unit, cursorByUnit.get(unit.key) ?? null);
          if (res.batches.length) cursorByUnit.set(unit.key, res.cursor);
          if (pass === 0) sessionsPerAgent[adapter.agent] = (sessionsPerAgent[adapter.agent] ?? 0) + res.sessions.length;
        }
      }
    }
    expect(sessionsPerAgent.opencode).toBe(5);
    expect(sessionsPerAgent.hermes).toBe(4);
    expect(sessionsPerAgent.gemini).toBe(8);
    expect(sessionsPerAgent.claude).toBeGreaterThan(0);
    expect(sessionsPerAgent.codex).toBeGreaterThan(0);
    expect(sessionsPerAgent.pi).toBe(11);
    expect(sessionsPerAgent.qwen).toBe(8);
    expect(sessionsPerAgent.cline).toBe(10);
    expect(sessionsPerAgent.kilo).toBe(10);
    expect(sessionsPerAgent.copilot).toBe(9);
    expect(sessionsPerAgent.continue).toBe(9);
    expect(sessionsPerAgent.droid).toBe(11);
    expect(sessionsPerAgent.letta).toBe(10);
    const after = checksums(fh.home);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort()); // no -wal/-shm created either
    for (const [file, sum] of before) expect(after.get(file), file).toBe(sum);
  });
});
