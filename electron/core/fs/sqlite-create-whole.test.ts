import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { createSqliteWhole } from './sqlite-create-whole.js';

describe('createSqliteWhole', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('places a built WAL database, and keeps the first one when the file exists', () => {
    const file = path.join(tmp.dir, 'x.db');
    expect(createSqliteWhole(file, (db) => db.exec("CREATE TABLE t (v); INSERT INTO t VALUES ('first')"))).toBe(true);
    expect(createSqliteWhole(file, (db) => db.exec("CREATE TABLE t (v); INSERT INTO t VALUES ('second')"))).toBe(false);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual(['first']);
    db.close();
    expect(fs.readdirSync(tmp.dir).filter((f) => f.includes('.new-'))).toEqual([]);
  });

  it('places nothing and leaves nothing staged when the build fails', () => {
    const file = path.join(tmp.dir, 'x.db');
    expect(() => createSqliteWhole(file, (db) => db.exec('CREATE TABLE t (v); NOT SQL'))).toThrow(/syntax error/);
    expect(fs.readdirSync(tmp.dir)).toEqual([]);
  });
});
