import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { BATON_DB_FILE, openBatonDb, UserDataError } from './baton-db.js';
import { LATEST_VERSION } from './migrations.js';
import { openUserData, type NewCheckpoint } from './user-data.js';

function newCheckpoint(over: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    sessionId: 'claude:s1',
    idempotencyToken: null,
    summary: 'Half way through the refactor',
    decisions: ['Use JWT'],
    nextSteps: ['Wire caller B'],
    blockers: [],
    itemsCompleted: [],
    itemsAdded: [],
    filesChanged: ['src/a.ts'],
    continuesFrom: null,
    git: null,
    gitFingerprint: {},
    createdAt: '2026-11-22T10:00:00.000Z',
    ...over,
  };
}

describe('baton.db', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('creates a fresh file at the latest version in WAL with synchronous=FULL, no backup', () => {
    const { db, backups, fromVersion } = openBatonDb(tmp.dir);
    expect(fromVersion).toBe(0);
    expect(backups).toEqual([]);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    db.close();
  });

  it('opens a new file from many processes at once: each one gets it, migrated once', async () => {
    // Released together by a clock, so their version reads and migrations interleave.
    const startAt = Date.now() + 1500;
    const script = `
      const { openBatonDb } = await import(${JSON.stringify(path.join(import.meta.dirname, 'baton-db.ts'))});
      while (Date.now() < ${startAt}) {}
      openBatonDb(${JSON.stringify(tmp.dir)}).db.close();`;
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const runs = Array.from({ length: 6 }, () =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      }),
    );
    for (const r of await Promise.all(runs)) expect(r).toEqual({ code: 0, stderr: '' });
    const db = new Database(path.join(tmp.dir, BATON_DB_FILE), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
  }, 30_000);

  it('migrates an old-version file, keeping its rows, after copying it aside', () => {
    const v1 = openBatonDb(tmp.dir, { targetVersion: 1 });
    v1.db
      .prepare("INSERT INTO checkpoints (id, session_id, summary, created_at) VALUES ('c1', 'codex:x', 'old one', '2026-01-01T00:00:00Z')")
      .run();
    v1.db.close();

    const data = openUserData(tmp.dir, { now: () => new Date('2026-11-22T12:00:00Z') });
    expect(data.backups).toHaveLength(1);
    const backup = data.backups[0]!;
    expect(path.basename(backup)).toMatch(/^baton\.db\.bak-v1-2026-11-22T12-00-00-000Z$/);
    // The backup is a usable v1 database with the row.
    const b = new Database(backup, { readonly: true });
    expect(b.pragma('user_version', { simple: true })).toBe(1);
    expect(b.prepare('SELECT summary FROM checkpoints').get()).toEqual({ summary: 'old one' });
    b.close();
    // The migrated file has the row and the v2 features.
    expect(data.getCheckpoint('c1')!.summary).toBe('old one');
    expect(data.fingerprintOf('c1')).toEqual({});
    expect(data.addNote('codex:x', 'remember the flag', '2026-11-22T12:00:00Z').id).toBeGreaterThan(0);
    data.close();
    // Opening again migrates nothing and makes no further copy.
    const again = openUserData(tmp.dir);
    expect(again.backups).toEqual([]);
    again.close();
    expect(fs.readdirSync(tmp.dir).filter((f) => f.includes('.bak-'))).toHaveLength(1);
  });

  it('refuses a corrupt file with a clear error and leaves it untouched', () => {
    const file = path.join(tmp.dir, BATON_DB_FILE);
    const garbage = Buffer.from('this is not sqlite at all, it is a text file that got here somehow\n'.repeat(200));
    fs.writeFileSync(file, garbage);
    expect(() => openUserData(tmp.dir)).toThrow(UserDataError);
    expect(() => openUserData(tmp.dir)).toThrow(/damaged or is not a Baton database.*will not overwrite or delete/);
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
    expect(fs.readdirSync(tmp.dir)).toEqual([BATON_DB_FILE]);
  });

  it('refuses a file from a newer Baton', () => {
    const { db } = openBatonDb(tmp.dir);
    db.pragma(`user_version = ${LATEST_VERSION + 5}`);
    db.close();
    expect(() => openUserData(tmp.dir)).toThrow(/newer than this Baton understands/);
    expect(fs.existsSync(path.join(tmp.dir, BATON_DB_FILE))).toBe(true);
  });

  it('returns the same checkpoint for a retried idempotency token, and nothing is doubled', () => {
    const data = openUserData(tmp.dir);
    const first = data.saveCheckpoint(newCheckpoint({ idempotencyToken: 'tok-1' }));
    const retry = data.saveCheckpoint(newCheckpoint({ idempotencyToken: 'tok-1', summary: 'retried body' }));
    expect(first.created).toBe(true);
    expect(retry.created).toBe(false);
    expect(retry.checkpoint).toEqual(first.checkpoint);
    expect(data.listCheckpoints('claude:s1')).toHaveLength(1);
    expect(() => data.saveCheckpoint(newCheckpoint({ sessionId: 'codex:other', idempotencyToken: 'tok-1' }))).toThrow(/another session/);
    data.close();
  });

  it('keeps checkpoints across reopen (durable) and walks pending → received → completed', () => {
    const data = openUserData(tmp.dir);
    const { checkpoint } = data.saveCheckpoint(newCheckpoint());
    data.close();
    const reopened = openUserData(tmp.dir);
    expect(reopened.getCheckpoint(checkpoint.id)).toEqual(checkpoint);
    expect(checkpoint.status).toBe('pending');
    const received = reopened.markReceived(checkpoint.id, '2026-11-22T11:00:00Z')!;
    expect(received.status).toBe('received');
    expect(reopened.markReceived(checkpoint.id, '2026-11-22T11:30:00Z')!.receivedAt).toBe('2026-11-22T11:00:00Z');
    const done = reopened.markCompleted(checkpoint.id, '2026-11-22T12:00:00Z')!;
    expect(done.status).toBe('completed');
    expect(reopened.handoffStats('2026-11-22T12:00:00Z')).toEqual({
      pending: 0,
      stalePending: 0,
      lastCompletedAt: '2026-11-22T12:00:00Z',
      lastCompletedSessionId: 'claude:s1',
    });
    reopened.close();
  });

  it('pins decisions by session and seq', () => {
    const data = openUserData(tmp.dir);
    data.setPin({ sessionId: 's', seq: 4, text: 'Postgres, not SQLite', pinnedAt: '2026-11-22T10:00:00Z' });
    data.setPin({ sessionId: 's', seq: 2, text: 'JWT over sessions', pinnedAt: '2026-11-22T10:00:00Z' });
    expect(data.listPins('s').map((p) => p.seq)).toEqual([2, 4]);
    expect(data.removePin('s', 4)).toBe(true);
    expect(data.removePin('s', 4)).toBe(false);
    expect(data.listPins('s').map((p) => p.text)).toEqual(['JWT over sessions']);
    data.close();
  });
});
