/**
 * A new SQLite file appears whole, and only once. Two processes creating an empty file in place
 * raced: an empty file's switch to WAL waits for its first write, so one could write in rollback
 * mode beside the other's WAL (baton.db: "table checkpoints already exists"), or take the other's
 * still-empty file for a damaged one (index.db: set aside while in use, "disk I/O error").
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Builds the database at a staging path beside `file` (in WAL mode, then `build`), closes it and
 * hard-links it into place. The link fails if `file` exists: another process got there first and
 * its file is kept. Returns whether this call placed the file; the staged files are always removed.
 */
export function createSqliteWhole(file: string, build: (db: Database.Database) => void): boolean {
  const staging = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const db = new Database(staging);
    try {
      db.pragma('journal_mode = WAL');
      build(db);
    } finally {
      db.close(); // the last connection checkpoints: the staged file alone holds everything
    }
    try {
      fs.linkSync(staging, file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  } finally {
    for (const leftover of [staging, `${staging}-wal`, `${staging}-shm`]) fs.rmSync(leftover, { force: true });
  }
}
