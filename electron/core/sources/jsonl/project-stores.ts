/**
 * Listing shared by the stores laid out as `<root>/projects/<project folder>/…/*.jsonl` (Claude Code,
 * Qwen Code): each root's `projects` folder once (two roots may point at the same store), the
 * adapter's state from what was found, and the units oldest first.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SourceStatusTracker } from '../source-status.js';
import { errorCode, errorMessage } from './jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';

/**
 * Calls `listProject` for every folder below `<root>/projects` of each root, then sorts the units
 * oldest first, so an original session is read before a newer file that copied its history.
 */
export async function listProjectStores(
  roots: readonly string[],
  tracker: SourceStatusTracker,
  listProject: (dir: string, units: SourceUnit[]) => Promise<void>,
): Promise<SourceUnit[]> {
  const units: SourceUnit[] = [];
  const seenReal = new Set<string>();
  let found = false;
  let unreadable: string | null = null;
  for (const root of roots) {
    const projects = path.join(root, 'projects');
    let real: string;
    try {
      real = await fsp.realpath(projects);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' && errorCode(err) !== 'ENOTDIR') unreadable = `${projects}: ${errorMessage(err)}`;
      continue;
    }
    if (seenReal.has(real)) continue;
    seenReal.add(real);
    let folders;
    try {
      folders = await fsp.readdir(projects, { withFileTypes: true });
    } catch (err) {
      unreadable = `${projects}: ${errorMessage(err)}`;
      continue;
    }
    found = true;
    for (const folder of folders) {
      if (folder.isDirectory()) await listProject(path.join(projects, folder.name), units);
    }
  }
  tracker.listed(found, unreadable);
  units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  return units;
}

/** Adds every `*.jsonl` file directly in `dir` (a folder that does not exist adds nothing). */
export async function addJsonlFilesIn(dir: string, units: SourceUnit[]): Promise<void> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(path.join(dir, e.name), units);
}

export async function addUnit(file: string, units: SourceUnit[]): Promise<void> {
  try {
    const st = await fsp.stat(file);
    units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs });
  } catch {
    // Vanished between readdir and stat: the next listing will not show it either.
  }
}
