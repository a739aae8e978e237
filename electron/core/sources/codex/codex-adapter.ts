/**
 * Codex CLI source adapter: `sessions/**\/rollout-*.jsonl` (YYYY/MM/DD and the older flat layout)
 * and `archived_sessions/rollout-*.jsonl[.zst]` under each CODEX_HOME; a plain `.jsonl` wins over
 * its `.zst` sibling. Thread names come from session_index.jsonl and state_<N>.sqlite.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import { errorCode, errorMessage } from '../jsonl/jsonl-session-reader.js';
import type { SourceAdapter } from '../types.js';
import { CodexParser, UUID_AT_END } from './codex-records.js';
import { CodexTitles } from './codex-titles.js';

const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
/** sessions/YYYY/MM/DD is three levels deep; allow one more for safety, never unbounded. */
const MAX_DEPTH = 4;

async function walk(titles: CodexTitles, dir: string, depth: number, listing: RootListing): Promise<void> {
  let entries;
  try {
    // Synchronous, as the stats below: one folder per day of history.
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') listing.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
    return;
  }
  const plain = new Set(entries.filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => e.name));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < MAX_DEPTH) await walk(titles, full, depth + 1, listing);
      continue;
    }
    if (!e.isFile() || !ROLLOUT.test(e.name)) continue;
    // Codex decompresses an archive back to .jsonl when it reopens it: that copy is current.
    if (e.name.endsWith('.zst') && plain.has(e.name.slice(0, -'.zst'.length))) continue;
    try {
      // Synchronous, as in project-stores.ts: thousands of awaited stats cost a thread-pool trip each.
      const st = fs.statSync(full);
      const id = UUID_AT_END.exec(e.name)?.[1]?.toLowerCase();
      const stamp = id ? titles.stamp(id) : undefined;
      listing.units.push({ key: full, path: full, size: st.size, mtimeMs: st.mtimeMs, ...(stamp ? { stamp } : {}) });
    } catch {
      // Vanished between readdir and stat.
    }
  }
}

export function createCodexAdapter(roots: string[] = defaultStoreRoots('codex', currentEnvironment())): SourceAdapter {
  return createJsonlAdapter('codex', roots, ({ roots: storeRoots, tracker }) => {
    const titles = new CodexTitles([...storeRoots], (file, message, line) => tracker.diagnostic(line ? { file, line, message } : { file, message }));
    return {
      parser: new CodexParser((id) => titles.lookup(id)),
      // Renames live in side files: they stamp the rollouts they name (see CodexTitles.stamp).
      beforeList: () => titles.refresh(),
      beforeRead: () => titles.refresh(),
      async listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
        try {
          if (!(await fsp.stat(root)).isDirectory()) return 'absent';
        } catch (err) {
          return missingOrUnreadable(err, root, ['ENOENT']);
        }
        await walk(titles, path.join(root, 'sessions'), 0, listing);
        await walk(titles, path.join(root, 'archived_sessions'), 0, listing);
        return 'found';
      },
    };
  });
}
