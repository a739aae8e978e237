/**
 * Opening `index.db`: WAL, synchronous=NORMAL, schema created or rebuilt. Because the index is a
 * cache, a database that is corrupt or from another schema version is set aside (renamed
 * `index.db.corrupt-<time>`) or dropped and rebuilt from the stores, with the reason logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_SQL, SCHEMA_VERSION } from './index-schema.js';

export type IndexDb = Database.Database;
export type IndexLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export const INDEX_FILE = 'index.db';

export function indexFilePath(dataDir: string): string {
  return path.join(dataDir, INDEX_FILE);
}

const SIDE_FILES = ['-wal', '-shm'];

function tune(db: IndexDb): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // 16 MB of page cache for the writer: 32 MB bought no speed on a cold index, only ~25 MB of RSS.
  db.pragma('cache_size = -16000');
}

/** quick_check is O(pages): affordable (milliseconds) only below this size. */
const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Cheap structural checks that catch random bytes and truncation without reading the whole file
 * (a full integrity_check of a multi-GB index would stall startup): the header parses, the schema
 * reads, the declared page count fits in the file, and the rightmost pages of the big tables read.
 */
function validate(db: IndexDb, file: string): string | null {
  const version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
  if (version !== String(SCHEMA_VERSION)) return `schema version ${version ?? 'missing'} ≠ ${SCHEMA_VERSION}`;
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

function setAside(file: string, reason: string, log: IndexLog): void {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}`;
  try {
    fs.renameSync(file, aside);
    for (const s of SIDE_FILES) if (fs.existsSync(file + s)) fs.renameSync(file + s, aside + s);
    log('warn', `index database ${file} is unusable (${reason}); moved to ${aside} and rebuilding from the agent stores`);
  } catch (err) {
    removeIndexFiles(file);
    log('warn', `index database ${file} is unusable (${reason}); could not move it aside (${String(err)}), deleted it and rebuilding`);
  }
}

export function removeIndexFiles(file: string): void {
  for (const s of ['', ...SIDE_FILES]) fs.rmSync(file + s, { force: true });
}

function createFresh(file: string): IndexDb {
  const db = new Database(file);
  tune(db);
  db.exec(SCHEMA_SQL);
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('created_at', ?)").run(new Date().toISOString());
  return db;
}

export interface PrepareOptions {
  log?: IndexLog;
  /** Drop the current index and start empty. */
  rebuild?: boolean;
}

/**
 * Makes sure `<dataDir>/index.db` exists, is readable and has the current schema, and returns a
 * write connection to it. Call once, on the thread that will write, before any reader opens it.
 */
export function openIndexForWriting(dataDir: string, opts: PrepareOptions = {}): IndexDb {
  const log = opts.log ?? (() => {});
  fs.mkdirSync(dataDir, { recursive: true });
  const file = indexFilePath(dataDir);
  if (opts.rebuild) removeIndexFiles(file);
  if (!fs.existsSync(file)) return createFresh(file);
  let db: IndexDb | null = null;
  let problem: string | null;
  try {
    db = new Database(file);
    tune(db);
    problem = validate(db, file);
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  if (problem === null && db) return db;
  db?.close();
  if (problem?.startsWith('schema version')) {
    log('info', `index database ${file}: ${problem}; rebuilding from the agent stores`);
    removeIndexFiles(file);
  } else {
    setAside(file, problem ?? 'unknown error', log);
  }
  return createFresh(file);
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
