/**
 * Where the running Baton listens: `server.json` in the data dir, written when the local server
 * starts and removed when it stops. `baton mcp install` registers that port (a `baton serve --port`
 * may differ from the "port" setting), and `mcp status` compares registrations with it. A record
 * left by a process that died is ignored (its pid no longer runs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export interface ServingRecord {
  port: number;
  pid: number;
}

export function servingFile(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

export function writeServingRecord(dataDir: string, port: number): void {
  writeFileAtomic(servingFile(dataDir), `${JSON.stringify({ port, pid: process.pid } satisfies ServingRecord)}\n`, 0o600);
}

/** Removes the record only when it is this process's own (a second Baton may have replaced it). */
export function clearServingRecord(dataDir: string): void {
  const record = readRecord(dataDir);
  if (record?.pid === process.pid) fs.rmSync(servingFile(dataDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(dataDir: string): ServingRecord | null {
  try {
    const value = JSON.parse(fs.readFileSync(servingFile(dataDir), 'utf8')) as Partial<ServingRecord>;
    if (!Number.isInteger(value.port) || !Number.isInteger(value.pid)) return null;
    return { port: value.port!, pid: value.pid! };
  } catch {
    return null;
  }
}

/** The port a live Baton serves on, or null when none runs for this data dir. */
export function servingPort(dataDir: string): number | null {
  const record = readRecord(dataDir);
  return record && alive(record.pid) ? record.port : null;
}
