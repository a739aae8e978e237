/**
 * What Baton remembers of each config it edited, so uninstall can give back every byte: the bytes
 * from before the first install (never holding Baton's entry, so never a token), a hash of what
 * Baton last wrote, and which containers (`mcpServers`, `hooks`, …) Baton's entry brought with it.
 * Kept in Baton's data dir (mode 0600), one JSON file per kind of change (MCP entry, hooks).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';

export type ContainerPath = string[];

export interface InstallRecord {
  /** The bytes before Baton's first install (base64), null when there was no file; absent when unknown. */
  original?: string | null;
  /** Permission bits before the install (uninstall restores them with the bytes). */
  mode?: number | null;
  /** sha256 of the bytes Baton wrote last. */
  written: string;
  /** Containers that did not exist before Baton's entry went in. */
  created: ContainerPath[];
  /** Folders Baton created for the file (or beside it), removed at uninstall when empty. */
  dirs?: string[];
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class InstallRecords {
  private readonly file: string;

  constructor(dataDir: string, name: string) {
    this.file = path.join(dataDir, name);
  }

  private readAll(): Record<string, InstallRecord> {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, InstallRecord>) : {};
    } catch {
      return {};
    }
  }

  get(key: string): InstallRecord | undefined {
    const record = this.readAll()[key];
    return record ? { ...record, created: Array.isArray(record.created) ? record.created : [] } : undefined;
  }

  set(key: string, record: InstallRecord | undefined): void {
    const all = this.readAll();
    if (record) all[key] = record;
    else if (key in all) delete all[key];
    else return;
    writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, 0o600);
  }
}

/**
 * The record after an install that turned `before` into `after`: the first install's original
 * and containers are kept while the file holds only what Baton wrote since.
 */
export function recordAfterInstall(
  previous: InstallRecord | undefined,
  before: { bytes: Buffer | null; mode: number | null; hasEntry: boolean },
  afterBytes: Buffer,
  created: ContainerPath[],
  dirs: string[] = [],
): InstallRecord {
  const written = sha256(afterBytes);
  const allDirs = [...new Set([...(previous?.dirs ?? []), ...dirs])];
  const withDirs = (record: InstallRecord): InstallRecord => (allDirs.length > 0 ? { ...record, dirs: allDirs } : record);
  if (previous && before.bytes && sha256(before.bytes) === previous.written) {
    const merged = [...previous.created, ...created.filter((c) => !previous.created.some((p) => p.join('\0') === c.join('\0')))];
    return withDirs({ ...previous, written, created: merged });
  }
  // An entry already there (an older Baton's): the bytes before it are not known.
  if (before.hasEntry) return withDirs({ written, created });
  return withDirs({ original: before.bytes ? before.bytes.toString('base64') : null, mode: before.mode, written, created });
}

/** The original bytes when the file still holds exactly what Baton wrote; undefined otherwise. */
export function originalIfUntouched(record: InstallRecord | undefined, current: Buffer | null): { bytes: Buffer | null; mode: number | null } | undefined {
  if (!record || record.original === undefined || !current || sha256(current) !== record.written) return undefined;
  return { bytes: record.original === null ? null : Buffer.from(record.original, 'base64'), mode: record.mode ?? null };
}

function isContainerPresent(root: unknown, at: ContainerPath): boolean {
  let node = root;
  for (const key of at) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** Which of the candidate containers exist in `after` but not in `before` (parsed plain data). */
export function createdContainers(before: unknown, after: unknown, candidates: ContainerPath[]): ContainerPath[] {
  return candidates.filter((c) => isContainerPresent(after, c) && !isContainerPresent(before, c));
}
