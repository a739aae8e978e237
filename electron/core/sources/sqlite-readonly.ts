/**
 * Opening another program's SQLite database safely: read-only, never checkpointing its WAL, with a
 * busy timeout and retries for the short SQLITE_BUSY/IOERR windows writers cause (Hermes documents
 * one around its own checkpoints). Schema is probed, never assumed.
 */
import Database from 'better-sqlite3';

export type ReadonlyDb = Database.Database;

const TRANSIENT = /SQLITE_(BUSY|LOCKED|IOERR)/;
const RETRIES = 3;
const BACKOFF_MS = 50;

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

/**
 * Opens `file` read-only. `readonly: true` makes SQLite refuse writes, and a read-only connection
 * never runs the automatic WAL checkpoint, so the agent's -wal/-shm stay exactly as it left them.
 */
export function openReadonly(file: string, busyTimeoutMs = 5000): ReadonlyDb {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // Fails fast with SQLITE_NOTADB on a file of random bytes instead of at the first query.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    const code = errorCode(err);
    throw new SqliteReadError(file, describe(err), TRANSIENT.test(code));
  }
}

/** Runs `fn` with a fresh read-only connection in one read transaction, retrying transient errors. */
export async function withReadonlyDb<T>(file: string, fn: (db: ReadonlyDb) => T, busyTimeoutMs = 5000): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    let db: ReadonlyDb | null = null;
    try {
      db = openReadonly(file, busyTimeoutMs);
      const open = db;
      // One read transaction so sessions and their messages are a consistent snapshot.
      return open.transaction(() => fn(open))();
    } catch (err) {
      lastError = err;
      const code = err instanceof SqliteReadError ? (err.transient ? 'SQLITE_BUSY' : '') : errorCode(err);
      if (!TRANSIENT.test(code) || attempt === RETRIES) break;
      await sleep(BACKOFF_MS * (attempt + 1));
    } finally {
      db?.close();
    }
  }
  if (lastError instanceof SqliteReadError) throw lastError;
  throw new SqliteReadError(file, describe(lastError), TRANSIENT.test(errorCode(lastError)));
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

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = errorCode(err);
    return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
