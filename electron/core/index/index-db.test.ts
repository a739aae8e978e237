import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { indexFilePath, openIndexForWriting, type IndexDb } from './index-db.js';
import { SCHEMA_VERSION } from './index-schema.js';
import { setAsideDamaged } from './index-set-aside.js';

function schemaOf(db: IndexDb): unknown[] {
  return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name").all();
}

describe('index.db', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('creates a new index whole: WAL, current schema, nothing staged left beside it', () => {
    const db = openIndexForWriting(tmp.dir);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION));
    db.close();
    expect(fs.readdirSync(tmp.dir)).toEqual(['index.db']);
  });

  it('empties an index of another schema version in place: same file, exactly the current schema, old rows gone', () => {
    const fresh = openIndexForWriting(path.join(tmp.dir, 'fresh'));
    const currentSchema = schemaOf(fresh);
    fresh.close();

    const dataDir = path.join(tmp.dir, 'data');
    const old = openIndexForWriting(dataDir);
    old.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
    old.prepare("INSERT INTO meta (key, value) VALUES ('stale', 'old row')").run();
    // An old layout: another FTS definition, a table, a view and an index the current schema no longer has.
    old.exec("DROP TABLE message_fts; CREATE VIRTUAL TABLE message_fts USING fts5(body, extra); INSERT INTO message_fts (rowid, body, extra) VALUES (1, 'old text', 'x')");
    old.exec("CREATE TABLE retired (x); CREATE VIEW retired_view AS SELECT x FROM retired; INSERT INTO retired VALUES (1); CREATE INDEX messages_retired ON messages (role, kind, id)");
    old.close();
    const inode = fs.statSync(indexFilePath(dataDir)).ino;

    const logs: string[] = [];
    const db = openIndexForWriting(dataDir, { log: (level, m) => logs.push(`${level}: ${m}`) });
    expect(logs).toEqual([expect.stringMatching(new RegExp(`^info: .*schema version ${SCHEMA_VERSION - 1} ≠ ${SCHEMA_VERSION}; rebuilt empty`))]);
    expect(schemaOf(db)).toEqual(currentSchema);
    expect(db.prepare("SELECT key FROM meta WHERE key = 'stale'").get()).toBeUndefined();
    expect(db.prepare('SELECT count(*) FROM message_fts').pluck().get()).toBe(0);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // The one file, emptied: a process that had it open is still on index.db.
    expect(fs.statSync(indexFilePath(dataDir)).ino).toBe(inode);

    // Opened again, it is current: nothing more is dropped.
    const again = openIndexForWriting(dataDir, { log: (level, m) => logs.push(`${level}: ${m}`) });
    again.close();
    expect(logs).toHaveLength(1);
  });

  it('never sets aside the new index another process put where the damaged one was', () => {
    const file = indexFilePath(tmp.dir);
    fs.writeFileSync(file, 'not a database');
    const seen = fs.statSync(file);
    // Another process moved the damaged file aside and created a new index meanwhile.
    fs.renameSync(file, `${file}.moved-by-another`);
    openIndexForWriting(tmp.dir).close();
    const placed = fs.statSync(file).ino;

    const logs: string[] = [];
    setAsideDamaged(file, seen, 'file is not a database', (level, m) => logs.push(`${level}: ${m}`));
    expect(fs.statSync(file).ino).toBe(placed);
    expect(fs.readdirSync(tmp.dir).filter((f) => f.includes('.corrupt-'))).toEqual([]);
    expect(logs).toEqual([]);
  });
});
