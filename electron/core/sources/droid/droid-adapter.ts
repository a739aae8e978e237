/**
 * Factory Droid source adapter. A root is Droid's folder (`~/.factory`) or its `sessions/` folder;
 * sessions are `sessions/<cwd with "/" → "-">/<uuid>.jsonl` (the cwd is taken from each file's
 * `session_start`, never from the lossy folder name). The `<uuid>.settings.json` Droid rewrites
 * beside each file (model, token totals) is the unit's stamp, read again only when it changed.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import { errorMessage } from '../jsonl/jsonl-session-reader.js';
import { SideDocuments } from '../jsonl/side-documents.js';
import type { SourceAdapter } from '../types.js';
import { DroidParser, parseDroidSettings, type DroidSettings } from './droid-records.js';

function settingsFile(transcript: string): string {
  return transcript.replace(/\.jsonl$/, '.settings.json');
}

async function sessionsDir(root: string): Promise<string> {
  const inner = path.join(root, 'sessions');
  try {
    if ((await fsp.stat(inner)).isDirectory()) return inner;
  } catch {
    // the sessions folder itself was given
  }
  return root;
}

export function createDroidAdapter(roots: string[] = defaultStoreRoots('droid', currentEnvironment())): SourceAdapter {
  const settings = new SideDocuments<DroidSettings>(parseDroidSettings);
  const adapter = createJsonlAdapter('droid', roots, ({ roots: storeRoots, tracker }) => {
    const problem = (file: string, message: string) => tracker.diagnostic({ file, message });
    async function listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
      const dir = await sessionsDir(root);
      let folders;
      try {
        const real = await fsp.realpath(dir);
        if (listing.seen.has(real)) return 'absent';
        listing.seen.add(real);
        folders = await fsp.readdir(dir, { withFileTypes: true });
      } catch (err) {
        return missingOrUnreadable(err, dir);
      }
      for (const folder of folders) {
        if (!folder.isDirectory()) continue;
        const project = path.join(dir, folder.name);
        let files;
        try {
          files = await fsp.readdir(project, { withFileTypes: true });
        } catch (err) {
          tracker.diagnostic({ file: project, message: `cannot list: ${errorMessage(err)}` });
          continue;
        }
        for (const f of files) {
          if (!f.isFile() || !f.name.endsWith('.jsonl')) continue;
          const file = path.join(project, f.name);
          try {
            const st = await fsp.stat(file);
            const stamp = await settings.refresh(settingsFile(file), problem);
            listing.units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs, stamp });
          } catch {
            // vanished between readdir and stat
          }
        }
      }
      return 'found';
    }
    return {
      parser: new DroidParser((file) => settings.get(settingsFile(file))),
      listRoot,
      // The rest of ~/.factory (logs, telemetry, caches) changes all the time: watch sessions/ once it exists.
      watchRoots: () => storeRoots.map((root) => (fs.existsSync(path.join(root, 'sessions')) ? path.join(root, 'sessions') : root)),
    };
  });
  // The parser takes model and tokens from the settings documents this adapter's listing read.
  return { ...adapter, readsListingState: true };
}
