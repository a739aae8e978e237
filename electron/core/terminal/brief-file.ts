/**
 * Temporary brief files handed to a new terminal. Private to the user (0700 dir, 0600 file) and
 * swept after a day: the terminal reads the file at some later moment we cannot observe, so it is
 * never deleted right away.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AgentId } from '../../../shared/model.js';

export const BRIEF_FILE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Per user: /tmp is shared on Linux, and another user's directory must never receive our briefs. */
export function briefDir(tmpRoot = os.tmpdir()): string {
  const uid = typeof process.getuid === 'function' ? `-${process.getuid()}` : '';
  return path.join(tmpRoot, `baton-briefs${uid}`);
}

/**
 * Creates the directory, or checks an existing one is ours and private: someone else's directory
 * would let them swap a brief (the agent's first prompt) before the terminal reads it.
 */
function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  if (!stat.isDirectory() || (uid !== null && stat.uid !== uid)) {
    throw new Error(`${dir} is not a directory owned by this user; refusing to put a brief there.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** Writes `text` to a fresh file and returns its path; removes files older than a day first. */
export function writeBriefFile(text: string, agent: AgentId, dir = briefDir(), now = Date.now()): string {
  ensurePrivateDir(dir);
  sweepOldBriefs(dir, now);
  const file = path.join(dir, `brief-${agent}-${randomBytes(6).toString('hex')}.md`);
  fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  return file;
}

export function sweepOldBriefs(dir: string, now = Date.now()): number {
  let removed = 0;
  for (const name of safeReaddir(dir)) {
    if (!/^brief-.*\.(md|sh)$/.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > BRIEF_FILE_MAX_AGE_MS) {
        fs.rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
