/**
 * Listing helpers for the JSONL stores: the `<root>/projects/<project folder>/…/*.jsonl` layout
 * (Claude Code, Qwen Code) as one root's listing, and adding the `*.jsonl` files of a folder.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SourceUnit } from '../types.js';
import { missingOrUnreadable, type RootListing, type RootOutcome } from './jsonl-adapter.js';
import { errorMessage } from './jsonl-session-reader.js';

/**
 * Lists a root laid out as `<root>/projects/<folder>/…`: `listProject` for every folder below its
 * `projects` folder, once per store (two roots may point at the same one).
 */
export function listProjectsRoot(
  listProject: (dir: string, listing: RootListing) => Promise<void>,
): (root: string, listing: RootListing) => Promise<RootOutcome> {
  return async (root, listing) => {
    const projects = path.join(root, 'projects');
    let real: string;
    try {
      real = await fsp.realpath(projects);
    } catch (err) {
      return missingOrUnreadable(err, projects);
    }
    if (listing.seen.has(real)) return 'absent';
    listing.seen.add(real);
    let folders;
    try {
      folders = await fsp.readdir(projects, { withFileTypes: true });
    } catch (err) {
      return { unreadable: `${projects}: ${errorMessage(err)}` };
    }
    for (const folder of folders) {
      if (folder.isDirectory()) await listProject(path.join(projects, folder.name), listing);
    }
    return 'found';
  };
}

/** Adds every `*.jsonl` file directly in `dir` (a folder that does not exist adds nothing). */
export async function addJsonlFilesIn(dir: string, units: SourceUnit[]): Promise<void> {
  // Synchronous, and a stat first: most Claude session folders have no subagents/ folder, and a
  // failed readdir per session costs an error object (and, awaited, a thread-pool trip) each.
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(path.join(dir, e.name), units);
}

export async function addUnit(file: string, units: SourceUnit[]): Promise<void> {
  // Synchronous: a listing stats thousands of files, and an awaited stat per file costs a thread-pool
  // round trip each (~5× the stat). Listing runs on the ingest thread, never the UI's.
  const st = fs.statSync(file, { throwIfNoEntry: false });
  // Undefined: vanished between readdir and stat, and the next listing will not show it either.
  if (st) units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs });
}
