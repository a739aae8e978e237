/**
 * Opening another program's SQLite database safely: read-only, never checkpointing its WAL and never
 * writing a byte into its files, with a busy timeout and retries for the short SQLITE_BUSY/IOERR
 * windows writers cause (Hermes documents one around its own checkpoints). Schema is probed, never
 * assumed.
 *
 * Why the URI modes: a plain `readonly` connection still writes into the agent's `-shm` (read marks,
 * wal-index recovery) and creates empty `-wal`/`-shm` files next to a WAL database that has none. So:
 *   - WAL db with -wal and -shm  → `mode=ro&readonly_shm=1`: the shared memory is mapped read-only;
 *     SQLite falls back to a private heap copy of the wal-index when it cannot take a read mark.
 *   - WAL db without sidecars    → the agent is not running and everything is in the main file:
 *     `immutable=1`, verified afterwards (the db stat unchanged, no -wal appeared) or retried.
 *   - rollback-journal db        → `mode=ro`: shared locks only, no files created.
 *   - anything else (one sidecar missing, or URI filenames unavailable) → a private snapshot copy of
 *     db + sidecars in a temp dir, verified the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

// better-sqlite3 reads SQLITE_USE_URI once, when its native addon loads (lazily, at the first
// `new Database`). Setting it here, at import time, enables `file:` URIs for the whole process; a
// path that does not start with `file:` is unaffected. If the addon was loaded before (URIs off),
// `uriSupported` turns false and snapshots are used instead.
if (process.env.SQLITE_USE_URI === undefined) process.env.SQLITE_USE_URI = '1';

export type ReadonlyDb = Database.Database;

/** How a database was opened (see the module comment). */
export type OpenMode = 'readonly-shm' | 'immutable' | 'rollback' | 'snapshot';

export interface ReadonlyOptions {
  busyTimeoutMs?: number;
  /** Extra attempts after the first on transient errors (default 3). */
  retries?: number;
  /** Linear backoff step between attempts (default 50 ms). */
  backoffMs?: number;
}

const TRANSIENT = /SQLITE_(BUSY|LOCKED|IOERR)/;
const RETRIES = 3;
const BACKOFF_MS = 50;
const SQLITE_MAGIC = 'SQLite format 3\0';

export class SqliteReadError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(`${file}: ${message}`);
    this.name = 'SqliteReadError';
  }
}

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err) return String((err as { code: unknown }).code);
  return '';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface FileStamp {
  size: number;
  mtimeMs: number;
}

function stamp(file: string): FileStamp | null {
  try {
    const st = fs.statSync(file);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  return a === b || (a !== null && b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs);
}

/** Reads the 100-byte header: clear "not a database" errors before SQLite is involved. */
function readHeader(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    throw new SqliteReadError(file, `cannot open: ${describe(err)}`, false);
  }
  try {
    // A directory opens fine for reading on Linux and then fails with a bare EISDIR: say what it is.
    if (fs.fstatSync(fd).isDirectory()) throw new SqliteReadError(file, 'is a directory, not a database file', false);
    const buf = Buffer.alloc(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

interface Handle {
  db: ReadonlyDb;
  mode: OpenMode;
  /** Throws a transient error when the files changed underneath a stamp-verified read. */
  verify(): void;
  dispose(): void;
}

let uriSupported = true;

function uriFor(file: string, query: string): string {
  return `${pathToFileURL(path.resolve(file)).href}?${query}`;
}

function configure(db: ReadonlyDb, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  // Fails fast with SQLITE_NOTADB / SQLITE_BUSY here instead of at the first real query.
  db.prepare('SELECT count(*) FROM sqlite_master').get();
}

function openUri(file: string, query: string, busyTimeoutMs: number): ReadonlyDb | null {
  if (!uriSupported) return null;
  let db: ReadonlyDb;
  try {
    db = new Database(uriFor(file, query), { readonly: true, fileMustExist: true });
  } catch (err) {
    // With URIs off, SQLite looks for a file literally named "file:…?…", which does not exist.
    if (errorCode(err) === 'SQLITE_CANTOPEN' && fs.existsSync(file)) {
      uriSupported = false;
      return null;
    }
    throw err;
  }
  try {
    configure(db, busyTimeoutMs);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Copies db + existing sidecars into a private temp dir and opens the copy. */
function openSnapshot(file: string, busyTimeoutMs: number): Handle {
  const before = [stamp(file), stamp(`${file}-wal`), stamp(`${file}-shm`)];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-sqlite-'));
  const copy = path.join(dir, path.basename(file));
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.copyFileSync(file, copy);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix);
    }
    const db = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      configure(db, busyTimeoutMs);
    } catch (err) {
      db.close();
      throw err;
    }
    const verify = () => {
      const after = [stamp(file), stamp(`${file}-wal`), stamp(`${file}-shm`)];
      // The shm changes on every reader/writer transaction; only the db and wal matter for content.
      if (!sameStamp(before[0]!, after[0]!) || !sameStamp(before[1]!, after[1]!)) {
        throw new SqliteReadError(file, 'database changed while it was being copied (SQLITE_BUSY)', true);
      }
    };
    return { db, mode: 'snapshot', verify, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

function openHandle(file: string, busyTimeoutMs: number): Handle {
  const header = readHeader(file);
  if (header.length === 0) throw new SqliteReadError(file, 'empty file, not a database yet', false);
  if (header.length < 100 || header.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
    throw new SqliteReadError(file, 'file is not a database (no SQLite header)', false);
  }
  const walMode = header[18] === 2 || header[19] === 2;
  const hasWal = fs.existsSync(`${file}-wal`);
  const hasShm = fs.existsSync(`${file}-shm`);
  const noop = () => {};

  if (!walMode && !hasWal) {
    const db = openUri(file, 'mode=ro', busyTimeoutMs) ?? null;
    if (db) return { db, mode: 'rollback', verify: noop, dispose: noop };
    // Rollback-journal readers never write; a plain read-only open is safe without URIs.
    const plain = new Database(file, { readonly: true, fileMustExist: true });
    try {
      configure(plain, busyTimeoutMs);
    } catch (err) {
      plain.close();
      throw err;
    }
    return { db: plain, mode: 'rollback', verify: noop, dispose: noop };
  }
  if (hasWal && hasShm) {
    const db = openUri(file, 'mode=ro&readonly_shm=1', busyTimeoutMs);
    if (db) return { db, mode: 'readonly-shm', verify: noop, dispose: noop };
  } else if (!hasWal && !hasShm) {
    const before = stamp(file);
    const db = openUri(file, 'mode=ro&immutable=1', busyTimeoutMs);
    if (db) {
      const verify = () => {
        if (!sameStamp(before, stamp(file)) || fs.existsSync(`${file}-wal`)) {
          throw new SqliteReadError(file, 'database was opened by its writer during the read (SQLITE_BUSY)', true);
        }
      };
      return { db, mode: 'immutable', verify, dispose: noop };
    }
  }
  return openSnapshot(file, busyTimeoutMs);
}

function wrapOpenError(file: string, err: unknown): SqliteReadError {
  if (err instanceof SqliteReadError) return err;
  const code = errorCode(err);
  const text = code === 'SQLITE_NOTADB' ? `file is not a database (${code})` : describe(err);
  return new SqliteReadError(file, text, TRANSIENT.test(code));
}

/**
 * Opens `file` read-only without writing to it or its sidecars (see the module comment). The caller
 * must `close()` the connection; snapshot copies are removed on close.
 */
export function openReadonly(file: string, busyTimeoutMs = 5000): ReadonlyDb {
  let handle: Handle;
  try {
    handle = openHandle(file, busyTimeoutMs);
  } catch (err) {
    throw wrapOpenError(file, err);
  }
  if (handle.mode === 'snapshot') {
    const db = handle.db;
    const close = db.close.bind(db);
    db.close = () => {
      close();
      handle.dispose();
      return db;
    };
  }
  return handle.db;
}

/** Runs `fn` with a fresh read-only connection in one read transaction, retrying transient errors. */
export async function withReadonlyDb<T>(
  file: string,
  fn: (db: ReadonlyDb) => T,
  busyTimeoutMs = 5000,
  options: Omit<ReadonlyOptions, 'busyTimeoutMs'> = {},
): Promise<T> {
  const retries = options.retries ?? RETRIES;
  const backoff = options.backoffMs ?? BACKOFF_MS;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    let handle: Handle | null = null;
    try {
      handle = openHandle(file, busyTimeoutMs);
      const open = handle.db;
      // One read transaction so sessions and their messages are a consistent snapshot.
      const result = open.transaction(() => fn(open))();
      handle.verify();
      return result;
    } catch (err) {
      lastError = wrapOpenError(file, err);
      const retryable = (lastError as SqliteReadError).transient || (handle?.mode === 'immutable' && errorCode(err) === 'SQLITE_CORRUPT');
      if (!retryable || attempt === retries) break;
      await sleep(backoff * (attempt + 1));
    } finally {
      try {
        handle?.db.close();
      } finally {
        handle?.dispose();
      }
    }
  }
  throw lastError;
}

/** Column names of `table`, or an empty set when the table does not exist. */
export function tableColumns(db: ReadonlyDb, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

export function tableNames(db: ReadonlyDb): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Throws a clear error naming what is missing when `required` columns are absent. */
export function requireColumns(db: ReadonlyDb, file: string, table: string, required: readonly string[]): Set<string> {
  const columns = tableColumns(db, table);
  if (columns.size === 0) throw new SqliteReadError(file, `unknown schema: table "${table}" not found`, false);
  const missing = required.filter((c) => !columns.has(c));
  if (missing.length > 0) {
    throw new SqliteReadError(file, `unknown schema: table "${table}" lacks column(s) ${missing.join(', ')}`, false);
  }
  return columns;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Bytes of the database and its WAL on disk: the honest upper bound of what a full read consults. */
export function databaseBytes(file: string): number {
  return (stamp(file)?.size ?? 0) + (stamp(`${file}-wal`)?.size ?? 0);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = errorCode(err);
    return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}

/**
 * A query over a list of ids (`sql(list)`, list = `?, ?, …`), statements cached per list length:
 * one statement for a chunk of sessions instead of one per session.
 */
export function inListQuery<T>(db: ReadonlyDb, sql: (list: string) => string): (ids: readonly string[]) => T[] {
  const statements = new Map<number, Database.Statement>();
  return (ids) => {
    let st = statements.get(ids.length);
    if (!st) {
      st = db.prepare(sql(ids.map(() => '?').join(', ')));
      statements.set(ids.length, st);
    }
    return st.all(...ids) as T[];
  };
}

/** Rows grouped by `key`, each group in row order. */
export function groupRows<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}
