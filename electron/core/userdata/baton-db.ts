/**
 * Opens baton.db, the user's own data (checkpoints, pins, notes). Unlike index.db it cannot be
 * rebuilt, so: WAL + synchronous=FULL (a commit is on disk before success is returned), a copy
 * set aside before every migration, and a corrupt or too-new file is refused with a clear error
 * and left exactly where it is — never deleted, never "repaired" by starting over.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteWhole } from '../fs/sqlite-create-whole.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';

export const BATON_DB_FILE = 'baton.db';

export class UserDataError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'UserDataError';
  }
}

export interface OpenedBatonDb {
  db: Database.Database;
  file: string;
  /** Copies made before migrating, oldest first (empty when nothing was migrated). */
  backups: string[];
  fromVersion: number;
}

export interface OpenBatonDbOptions {
  /** Stop at this schema version (tests build old-version files this way). */
  targetVersion?: number;
  now?: () => Date;
}

export function openBatonDb(dir: string, options: OpenBatonDbOptions = {}): OpenedBatonDb {
  const file = path.join(dir, BATON_DB_FILE);
  const target = options.targetVersion ?? LATEST_VERSION;
  const now = options.now ?? (() => new Date());
  fs.mkdirSync(dir, { recursive: true });
  // A file this call created reports version 0, as a new file always has.
  const created = !fs.existsSync(file) && createWhole(file, target);
  const existed = fs.existsSync(file) && fs.statSync(file).size > 0;
  if (existed) checkReadable(file);

  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new UserDataError(`Cannot open ${file}: ${messageOf(err)}. The file was left untouched.`, file);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const fromVersion = created ? 0 : Number(db.pragma('user_version', { simple: true }));
    if (fromVersion > LATEST_VERSION) {
      throw new UserDataError(
        `${file} has schema version ${fromVersion}, newer than this Baton understands (${LATEST_VERSION}). ` +
          'Upgrade Baton; the file was left untouched.',
        file,
      );
    }
    const backups: string[] = [];
    const pending = MIGRATIONS.filter((m) => m.version > fromVersion && m.version <= target);
    if (pending.length > 0 && fromVersion > 0) backups.push(backupBeforeMigration(db, file, fromVersion, now()));
    for (const migration of pending) applyMigration(db, migration);
    return { db, file, backups, fromVersion };
  } catch (err) {
    db.close();
    if (err instanceof UserDataError) throw err;
    throw new UserDataError(`Cannot use ${file}: ${messageOf(err)}. The file was left untouched.`, file);
  }
}

/** A new baton.db appears whole (every migration, WAL), or another process's is kept: see createSqliteWhole. */
function createWhole(file: string, target: number): boolean {
  try {
    return createSqliteWhole(file, (db) => {
      db.pragma('synchronous = FULL');
      for (const migration of MIGRATIONS.filter((m) => m.version <= target)) applyMigration(db, migration);
    });
  } catch (err) {
    throw new UserDataError(`Cannot create ${file}: ${messageOf(err)}.`, file);
  }
}

/** Read-only integrity probe before any write can touch the file. */
function checkReadable(file: string): void {
  let probe: Database.Database | null = null;
  try {
    probe = new Database(file, { readonly: true, fileMustExist: true });
    const result = probe.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`integrity check failed: ${String(result)}`);
  } catch (err) {
    throw new UserDataError(
      `${file} is damaged or is not a Baton database (${messageOf(err)}). ` +
        'Baton will not overwrite or delete it: move it aside (or restore a baton.db.bak-* copy) and start Baton again.',
      file,
    );
  } finally {
    probe?.close();
  }
}

function backupBeforeMigration(db: Database.Database, file: string, version: number, at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  let target = `${file}.bak-v${version}-${stamp}`;
  for (let n = 1; fs.existsSync(target); n++) target = `${file}.bak-v${version}-${stamp}-${n}`;
  // VACUUM INTO writes a consistent, self-contained copy (WAL contents included).
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}

function applyMigration(db: Database.Database, migration: Migration): void {
  // IMMEDIATE, and the version read again under that write lock: two commands opening a new data
  // dir at once (`baton list` and `baton search` from one shell) both saw version 0, and the
  // second failed on "table checkpoints already exists".
  db.transaction(() => {
    if (Number(db.pragma('user_version', { simple: true })) >= migration.version) return;
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  }).immediate();
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
