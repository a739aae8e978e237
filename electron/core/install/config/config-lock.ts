/**
 * The lock a running Claude Code takes while it saves `~/.claude.json` (2.1.x, through
 * proper-lockfile): a folder `<file>.lock` made with mkdir (atomic), held for the length of a
 * read-modify-write and refreshed while held; one untouched for 10 s is stale. Baton takes the same
 * lock around its own read-modify-write of that file, so neither side writes over the other's
 * change. (Writers that take no lock are caught by the re-read before the rename: config-file.ts.)
 */
import fs from 'node:fs';
import { ConfigEditError } from './config-edit-error.js';

/** proper-lockfile's default `stale`: a lock whose folder is older than this is abandoned. */
const STALE_MS = 10_000;
const WAIT_MS = 5_000;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isStale(lockDir: string): boolean {
  try {
    return Date.now() - fs.statSync(lockDir).mtimeMs > STALE_MS;
  } catch {
    return false; // just released: the next mkdir decides
  }
}

/** Runs `work` holding `<file>.lock`; waits (up to 5 s) for another holder, and takes over a stale lock. */
export function withConfigLock<T>(file: string, work: () => T): T {
  const lockDir = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // No folder for the file yet: nobody else can be saving it.
      if (code === 'ENOENT') return work();
      if (code !== 'EEXIST') throw err;
      if (isStale(lockDir)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ConfigEditError(`${file} is being saved by another program (it holds ${lockDir}); Baton left it untouched. Try again.`);
      pause(5 + Math.random() * 20);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
