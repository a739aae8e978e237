/**
 * Opening `index.db`: WAL, synchronous=NORMAL, schema created or rebuilt. Because the index is a
 * cache, a database that is corrupt is set aside (renamed `index.db.corrupt-<time>-<pid>`) and one
 * of another schema version is emptied; either is rebuilt from the stores, with the reason logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteWhole } from '../fs/sqlite-create-whole.js';
import { quoteIdent } from '../sources/sqlite/sqlite-readonly.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from './index-schema.js';
import { removeIndexFiles, setAsideDamaged, statOrNull } from './index-set-aside.js';

export type IndexDb = Database.Database;
export type IndexLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export const INDEX_FILE = 'index.db';

export function indexFilePath(dataDir: string): string {
  return path.join(dataDir, INDEX_FILE);
}

function tune(db: IndexDb): void {
  // First, so that switching to WAL waits for another process's lock instead of failing at once.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  // 16 MB of page cache for the writer: 32 MB bought no speed on a cold index, only ~25 MB of RSS.
  db.pragma('cache_size = -16000');
}

/** quick_check is O(pages): affordable (milliseconds) only below this size. */
const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

function schemaVersion(db: IndexDb): string | undefined {
  return db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
}

/**
 * Cheap structural checks that catch random bytes and truncation without reading the whole file
 * (a full integrity_check of a multi-GB index would stall startup): the header parses, the schema
 * reads, the declared page count fits in the file, and the rightmost pages of the big tables read.
 */
function damage(db: IndexDb, file: string): string | null {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pageCount = db.pragma('page_count', { simple: true }) as number;
  const size = fs.statSync(file).size;
  const hasWal = fs.existsSync(file + '-wal') && fs.statSync(file + '-wal').size > 0;
  if (!hasWal && size < pageSize * pageCount) return 'file shorter than its page count (truncated)';
  db.prepare('SELECT max(rowid), count(*) FROM sessions').get();
  db.prepare('SELECT max(id) FROM messages').get();
  db.prepare('SELECT max(rowid) FROM units').get();
  if (size <= QUICK_CHECK_MAX_BYTES) {
    const check = db.pragma('quick_check(1)', { simple: true }) as string;
    if (check !== 'ok') return `quick_check: ${check}`;
  }
  return null;
}

function writeSchema(db: IndexDb): void {
  db.exec(SCHEMA_SQL);
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('created_at', ?)").run(new Date().toISOString());
}

/** A schema change can outlast a 5 s wait: another process may be dropping a large old index. */
const REBUILD_BUSY_TIMEOUT_MS = 120_000;

/**
 * An index of another schema version is emptied and given the current schema in place, under the
 * write lock, with the version read again under it: every process that found the old version keeps
 * its connection on the one index.db, and only the first one drops anything. (Deleting the file
 * instead let a second process delete the first one's new index, and its WAL, while in use.)
 * Returns whether this call rebuilt it.
 */
function rebuildInPlace(db: IndexDb): boolean {
  db.pragma(`busy_timeout = ${REBUILD_BUSY_TIMEOUT_MS}`);
  try {
    return db
      .transaction(() => {
        if (schemaVersion(db) === String(SCHEMA_VERSION)) return false;
        dropEverything(db);
        writeSchema(db);
        return true;
      })
      .immediate();
  } finally {
    db.pragma('busy_timeout = 5000');
  }
}

function dropEverything(db: IndexDb): void {
  const names = (where: string) => db.prepare(`SELECT name FROM sqlite_master WHERE ${where}`).pluck().all() as string[];
  for (const view of names("type = 'view'")) db.exec(`DROP VIEW ${quoteIdent(view)}`);
  // A virtual table (FTS) drops its own shadow tables, so it goes first and the rest is listed after.
  for (const table of names("type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")) db.exec(`DROP TABLE ${quoteIdent(table)}`);
  for (const table of names("type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")) db.exec(`DROP TABLE ${quoteIdent(table)}`);
}

function isBusy(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/**
 * Opens and checks the index.db there now. Returns null when there was none to keep: it vanished
 * (another process set it aside) or it was damaged and this call set it aside.
 */
function openChecked(file: string, log: IndexLog): IndexDb | null {
  const seen = statOrNull(file);
  if (!seen) return null;
  let db: IndexDb;
  try {
    // fileMustExist: a file set aside meanwhile must not come back as an empty one made here.
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    if (fs.existsSync(file)) setAsideDamaged(file, seen, messageOf(err), log);
    return null;
  }
  try {
    tune(db);
    const version = schemaVersion(db);
    if (version !== String(SCHEMA_VERSION)) {
      if (rebuildInPlace(db)) log('info', `index database ${file}: schema version ${version ?? 'missing'} ≠ ${SCHEMA_VERSION}; rebuilt empty, indexing the agent stores again`);
      return db;
    }
    const problem = damage(db, file);
    if (problem === null) return db;
    db.close();
    setAsideDamaged(file, seen, problem, log);
    return null;
  } catch (err) {
    db.close();
    if (isBusy(err)) throw err; // held by another process, not damaged
    setAsideDamaged(file, seen, messageOf(err), log);
    return null;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface PrepareOptions {
  log?: IndexLog;
  /** Drop the current index and start empty. */
  rebuild?: boolean;
}

/** Rounds of "set aside, create, open" before giving up on a file that other processes keep replacing. */
const OPEN_ATTEMPTS = 5;

/**
 * Makes sure `<dataDir>/index.db` exists, is readable and has the current schema, and returns a
 * write connection to it. Call once, on the thread that will write, before any reader opens it.
 * Safe when several processes (`baton serve` and a `baton index`) open a new or old index at once:
 * a new file appears whole (createSqliteWhole), an old-version one is rebuilt in place.
 */
export function openIndexForWriting(dataDir: string, opts: PrepareOptions = {}): IndexDb {
  const log = opts.log ?? (() => {});
  fs.mkdirSync(dataDir, { recursive: true });
  const file = indexFilePath(dataDir);
  if (opts.rebuild) removeIndexFiles(file);
  for (let attempt = 1; ; attempt++) {
    if (!fs.existsSync(file)) createSqliteWhole(file, writeSchema);
    const db = openChecked(file, log);
    if (db) return db;
    if (attempt === OPEN_ATTEMPTS) throw new Error(`index database ${file} was replaced ${OPEN_ATTEMPTS} times while it was being opened; try again`);
  }
}

/** A connection for reading only; WAL lets it read while the writer commits. */
export function openIndexForReading(dataDir: string): IndexDb {
  const db = new Database(indexFilePath(dataDir), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -16000');
  return db;
}

export function isCorruptionError(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}
