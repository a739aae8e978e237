/**
 * Gemini CLI source adapter: `tmp/<project>/chats/session-*.jsonl` under each store root
 * (`$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`), subagents in `chats/<parent id>/*.jsonl`, and
 * legacy whole-JSON `session-*.json` unless the CLI already converted them to `.jsonl` beside them.
 * A root may also be the `tmp` folder, one project folder or its `chats` folder. The CLI's own
 * leftovers (`*.tmp-<pid>` mid-rewrite, `*.unreadable-<ms>` backups of a file it rewrote) are never
 * read: they repeat a session that has its real file.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import { errorCode, errorMessage } from '../jsonl/jsonl-session-reader.js';
import type { SourceAdapter } from '../types.js';
import { GeminiParser } from './gemini-records.js';
import { readLegacyJson } from './legacy-json.js';
import { ProjectRoots } from './project-roots.js';

const LEFTOVER = /\.(tmp|unreadable)-[^/\\]*$/;

export function isChatFile(name: string, inSubagentFolder: boolean): boolean {
  if (LEFTOVER.test(name)) return false;
  if (!name.endsWith('.jsonl') && !name.endsWith('.json')) return false;
  return inSubagentFolder || name.startsWith('session-');
}

/** Project folders under `root`: a `.gemini` dir (has `tmp/`), its `tmp/`, one project or its `chats/`. */
async function projectDirs(root: string): Promise<string[]> {
  const st = await fsp.stat(root);
  if (!st.isDirectory()) {
    const err = new Error('not a directory') as NodeJS.ErrnoException;
    err.code = 'ENOTDIR';
    throw err;
  }
  if (path.basename(root) === 'chats') return [path.dirname(root)];
  if (await isDir(path.join(root, 'chats'))) return [root];
  const tmp = path.join(root, 'tmp');
  const parent = (await isDir(tmp)) ? tmp : root;
  const entries = await fsp.readdir(parent, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name));
}

async function listChats(dir: string, subagents: boolean, listing: RootListing): Promise<void> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') listing.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
    return;
  }
  const names = new Set(entries.map((e) => e.name));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!subagents) await listChats(full, true, listing); // chats/<parent sessionId>/
      continue;
    }
    if (!e.isFile() || !isChatFile(e.name, subagents)) continue;
    // The CLI converts a legacy .json to .jsonl when it resumes it: the .jsonl holds it all.
    if (e.name.endsWith('.json') && names.has(`${e.name}l`)) continue;
    try {
      const st = await fsp.stat(full);
      listing.units.push({ key: full, path: full, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Vanished between readdir and stat.
    }
  }
}

async function listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
  let dirs: string[];
  try {
    dirs = await projectDirs(root);
  } catch (err) {
    return missingOrUnreadable(err, root);
  }
  for (const dir of dirs) {
    if (listing.seen.has(dir)) continue;
    listing.seen.add(dir);
    await listChats(path.join(dir, 'chats'), false, listing);
  }
  return 'found';
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

export function createGeminiAdapter(roots: string[] = defaultStoreRoots('gemini', currentEnvironment())): SourceAdapter {
  return createJsonlAdapter('gemini', roots, ({ roots: storeRoots, tracker }) => {
    const projects = new ProjectRoots();
    const parser = new GeminiParser(projects);
    return {
      parser,
      // A fresh listing learns the project folders again.
      beforeList: () => projects.clear(),
      listRoot,
      /**
       * Sessions live under `tmp/`; the rest of `~/.gemini` can be bulky (checkpointing's shadow git
       * repos in `history/`, extensions). A root whose `tmp/` does not exist yet is watched whole, so
       * the first session of a fresh install is seen as it is written.
       */
      watchRoots: () =>
        storeRoots.map((root) => {
          const tmp = path.join(root, 'tmp');
          return fs.existsSync(tmp) && !fs.existsSync(path.join(root, 'chats')) ? tmp : root;
        }),
      readOther: (unit, ctx) => (unit.path.endsWith('.json') ? readLegacyJson(unit, ctx, parser, tracker) : null),
    };
  });
}
