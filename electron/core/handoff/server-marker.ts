/**
 * Where a running Baton listens, as hooks need it (port and pid): read from the `server.json` the
 * local server writes (see server/server-file.ts). A stale file (process gone) is ignored.
 */
import { readServerFile, readServerFileRaw } from '../server/server-file.js';

export interface ServerMarker {
  port: number;
  pid: number;
}

export function readServerMarker(dataDir: string, { checkAlive = true } = {}): ServerMarker | null {
  const file = checkAlive ? readServerFile(dataDir) : readServerFileRaw(dataDir);
  return file ? { port: file.port, pid: file.pid } : null;
}
