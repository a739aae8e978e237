/**
 * GitHub Copilot CLI source adapter: one folder per session, `<root>/session-state/<id>/`, whose
 * `events.jsonl` is the transcript (a resume appends to it) and whose `workspace.yaml` holds the
 * name. The global `session-store.db` is a derived index that can lag the events; it is not read.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import type { SourceAdapter } from '../types.js';
import { CopilotParser } from './copilot-records.js';
import { CopilotWorkspaces } from './copilot-workspace.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A root is `~/.copilot` or its `session-state` folder (as a user may type it in Settings). */
function sessionStateDir(root: string): string {
  return path.basename(root) === 'session-state' ? root : path.join(root, 'session-state');
}

export function createCopilotAdapter(roots: string[] = defaultStoreRoots('copilot', currentEnvironment())): SourceAdapter {
  const adapter = createJsonlAdapter('copilot', roots, ({ roots: storeRoots, tracker }) => {
    const workspaces = new CopilotWorkspaces();
    async function listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
      let dir = sessionStateDir(root);
      let entries;
      try {
        const real = await fsp.realpath(dir);
        if (listing.seen.has(real)) return 'absent';
        listing.seen.add(real);
        dir = real;
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (err) {
        return missingOrUnreadable(err, dir);
      }
      for (const e of entries) {
        if (!e.isDirectory() || !UUID.test(e.name)) continue; // `.session-operation-locks` and the like
        const file = path.join(dir, e.name, 'events.jsonl');
        try {
          const st = await fsp.stat(file);
          const workspace = path.join(dir, e.name, 'workspace.yaml');
          const name = workspaces.refresh(e.name, workspace, (message) => tracker.diagnostic({ file: workspace, message }));
          listing.units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs, stamp: `name:${name ?? ''}` });
        } catch {
          // A session folder whose events.jsonl is not written yet (or vanished): the next listing sees it.
        }
      }
      return 'found';
    }
    // ~/.copilot also holds logs/ and settings rewritten while the CLI runs: watch only the sessions.
    const watchRoots = () => storeRoots.map(sessionStateDir);
    return { parser: new CopilotParser((id) => workspaces.name(id)), listRoot, watchRoots };
  });
  // Titles come from the workspace.yaml documents this adapter's listing read.
  return { ...adapter, readsListingState: true };
}
