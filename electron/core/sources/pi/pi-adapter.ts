/**
 * pi source adapter. A root is a sessions folder: pi's default one holds a `--<cwd>--/` folder per
 * project, while `--session-dir` / PI_CODING_AGENT_SESSION_DIR / settings `sessionDir` folders are
 * flat, so both `<root>/*.jsonl` and `<root>/<folder>/*.jsonl` are listed. A root that is pi's agent
 * folder itself (`~/.pi/agent`, as a user may type it in Settings) is read through its `sessions/`.
 * The cwd comes from each file's header, never from the (lossy) folder name.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import { errorMessage } from '../jsonl/jsonl-session-reader.js';
import { addUnit } from '../jsonl/project-stores.js';
import type { SourceAdapter } from '../types.js';
import { PiParser } from './pi-records.js';

async function listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
  let dir = root;
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
    if (entries.some((e) => e.isDirectory() && e.name === 'sessions') && !entries.some((e) => e.name.endsWith('.jsonl'))) {
      dir = path.join(root, 'sessions'); // the agent folder was given
      entries = await fsp.readdir(dir, { withFileTypes: true });
    }
    const real = await fsp.realpath(dir);
    if (listing.seen.has(real)) return 'absent'; // two roots naming the same store
    listing.seen.add(real);
  } catch (err) {
    return missingOrUnreadable(err, dir);
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(full, listing.units);
    else if (e.isDirectory()) await listFolder(full, listing);
  }
  return 'found';
}

async function listFolder(dir: string, listing: RootListing): Promise<void> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    listing.tracker.diagnostic({ file: dir, message: `cannot list: ${errorMessage(err)}` });
    return;
  }
  for (const e of entries) if (e.isFile() && e.name.endsWith('.jsonl')) await addUnit(path.join(dir, e.name), listing.units);
}

export function createPiAdapter(roots: string[] = defaultStoreRoots('pi', currentEnvironment())): SourceAdapter {
  return createJsonlAdapter('pi', roots, () => ({ parser: new PiParser(), listRoot }));
}
