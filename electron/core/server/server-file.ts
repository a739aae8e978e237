/**
 * `server.json` in Baton's data dir: where a running Baton (the app or `baton serve`) listens, so a
 * one-shot CLI command can ask it instead of re-checking every store itself. Written when the server
 * starts, removed when it stops; a file left by a process that died is ignored (its pid is gone).
 * It holds no secret: the CLI authenticates with the token file, readable only by the user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export interface ServerFile {
  pid: number;
  port: number;
  url: string;
  version: string;
  startedAt: string;
}

export function serverFilePath(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

export function writeServerFile(dataDir: string, info: ServerFile): void {
  writeFileAtomic(serverFilePath(dataDir), `${JSON.stringify(info, null, 2)}\n`, 0o600);
}

/** Removes the file only when it still names this process (another Baton may have started since). */
export function removeServerFile(dataDir: string, pid = process.pid): void {
  const current = readServerFileRaw(dataDir);
  if (current?.pid !== pid) return;
  fs.rmSync(serverFilePath(dataDir), { force: true });
}

/** The file as written, without checking that its process still runs. */
export function readServerFileRaw(dataDir: string): ServerFile | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(serverFilePath(dataDir), 'utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const o = parsed as Record<string, unknown>;
  if (!Number.isInteger(o.pid) || !Number.isInteger(o.port) || typeof o.url !== 'string') return null;
  // Only a loopback URL: the file is the user's, but the CLI sends its token to whatever it names.
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+$/.test(o.url)) return null;
  return { pid: o.pid as number, port: o.port as number, url: o.url, version: String(o.version ?? ''), startedAt: String(o.startedAt ?? '') };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the pid now belongs to another user's process, so not our Baton either.
    return false;
  }
}

/** The running Baton of this data dir, or null when none runs (no file, a dead pid, a bad file). */
export function readServerFile(dataDir: string): ServerFile | null {
  const info = readServerFileRaw(dataDir);
  return info && isAlive(info.pid) ? info : null;
}
