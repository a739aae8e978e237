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

export function briefDir(tmpRoot = os.tmpdir()): string {
  return path.join(tmpRoot, 'baton-briefs');
}

/** Writes `text` to a fresh file and returns its path; removes files older than a day first. */
export function writeBriefFile(text: string, agent: AgentId, dir = briefDir(), now = Date.now()): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  sweepOldBriefs(dir, now);
  const file = path.join(dir, `brief-${agent}-${randomBytes(6).toString('hex')}.md`);
  fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  return file;
}

export function sweepOldBriefs(dir: string, now = Date.now()): number {
  let removed = 0;
  for (const name of safeReaddir(dir)) {
    if (!/^brief-.*\.md$/.test(name)) continue;
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
