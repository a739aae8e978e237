/**
 * Setting a damaged index.db aside (renamed `index.db.corrupt-<time>-<pid>`, with its WAL) so that
 * a new one can be built. Several processes may find the same damaged file at once: only the file
 * each one checked is ever moved, never the new index another process has put in its place.
 */
import fs from 'node:fs';

const SIDE_FILES = ['-wal', '-shm'];

export function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function sameFile(a: fs.Stats | null, b: fs.Stats): boolean {
  return a !== null && a.ino === b.ino && a.dev === b.dev;
}

/**
 * Moves `file` aside if it is still the file `seen` (stat before it was opened and found damaged).
 * Another process may have moved it already and linked a new index in: that one stays. (Only a
 * replacement in the instant between this check and the rename could still be moved.)
 */
export function setAsideDamaged(file: string, seen: fs.Stats, reason: string, log: (level: 'warn', message: string) => void): void {
  if (!sameFile(statOrNull(file), seen)) return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}-${process.pid}`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // another process moved it just now
    removeIndexFiles(file);
    log('warn', `index database ${file} is unusable (${reason}); could not move it aside (${String(err)}), deleted it and rebuilding`);
    return;
  }
  for (const s of SIDE_FILES) if (fs.existsSync(file + s)) fs.renameSync(file + s, aside + s);
  log('warn', `index database ${file} is unusable (${reason}); moved to ${aside} and rebuilding from the agent stores`);
}

export function removeIndexFiles(file: string): void {
  for (const s of ['', ...SIDE_FILES]) fs.rmSync(file + s, { force: true });
}
