/**
 * Baton's one backup policy for the agent files it edits (configs, the pi extension): a private
 * copy (mode 0600: it may hold a token) next to the path Baton was given, named
 * `<file>.bak-<UTC stamp>[-n]`, never written over an earlier backup.
 */
import fs from 'node:fs';
import path from 'node:path';

export const BACKUP_NAME = /\.bak-\d{8}T\d{6}Z(?:-\d+)?$/;

/** `<file>.bak-20260901T102030Z`, or with `-1`, `-2`, … when a backup of that second exists. */
export function freeBackupName(file: string, date: Date): string {
  const wanted = `${file}.bak-${date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
  let name = wanted;
  for (let i = 1; fs.existsSync(name); i++) name = `${wanted}-${i}`;
  return name;
}

/** Writes `bytes` (the file as it was) to a fresh backup; returns its path. */
export function writeBackup(file: string, bytes: Buffer | string, date: Date): string {
  const name = freeBackupName(file, date);
  fs.writeFileSync(name, bytes, { mode: 0o600, flag: 'wx' });
  return name;
}

/** Baton's backups of `file` (by name), oldest first. */
export function backupsOf(file: string): string[] {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(`${base}.bak-`) && BACKUP_NAME.test(n.slice(base.length)))
    .sort()
    .map((n) => path.join(dir, n));
}
