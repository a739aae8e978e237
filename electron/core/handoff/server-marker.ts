/**
 * `server.json` in the data dir says where a running Baton (app or `baton serve`) listens, so a
 * hook can nudge it without guessing a port: written when the local server starts, removed when
 * it stops. A stale file (process gone) is ignored by readers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export const SERVER_MARKER_FILE = 'server.json';

export interface ServerMarker {
  port: number;
  pid: number;
}

export function writeServerMarker(dataDir: string, marker: ServerMarker): void {
  writeFileAtomic(path.join(dataDir, SERVER_MARKER_FILE), `${JSON.stringify(marker)}\n`, 0o600);
}

export function removeServerMarker(dataDir: string, pid: number): void {
  const file = path.join(dataDir, SERVER_MARKER_FILE);
  if (readServerMarker(dataDir, { checkAlive: false })?.pid === pid) fs.rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readServerMarker(dataDir: string, { checkAlive = true } = {}): ServerMarker | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dataDir, SERVER_MARKER_FILE), 'utf8'));
  } catch {
    return null;
  }
  const m = raw as Partial<ServerMarker> | null;
  if (!m || !Number.isInteger(m.port) || !Number.isInteger(m.pid)) return null;
  const marker = { port: m.port!, pid: m.pid! };
  return !checkAlive || alive(marker.pid) ? marker : null;
}
