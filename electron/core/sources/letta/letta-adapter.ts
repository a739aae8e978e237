/**
 * Letta Code source adapter (local backend). A root is Letta's folder (`~/.letta`) or its
 * `lc-local-backend/` folder; a session is a conversation folder
 * `conversations/<base64url(key)>/` that has a `messages.jsonl` (an agent's untouched default
 * conversation has none and is no session). The folder's `conversation.json` (rewritten by Letta:
 * the title) is the unit's stamp, read again only when its size or mtime changed.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { createJsonlAdapter, missingOrUnreadable, type RootListing, type RootOutcome } from '../jsonl/jsonl-adapter.js';
import { errorCode, errorMessage } from '../jsonl/jsonl-session-reader.js';
import { SideDocuments } from '../jsonl/side-documents.js';
import type { SourceAdapter } from '../types.js';
import { LettaParser } from './letta-records.js';

function parseConversation(doc: unknown): { title: string | null } | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const summary = (doc as Record<string, unknown>).summary;
  return { title: typeof summary === 'string' && summary.trim() ? summary : null };
}

async function conversationsDir(root: string): Promise<string> {
  for (const inner of [path.join(root, 'lc-local-backend', 'conversations'), path.join(root, 'conversations')]) {
    try {
      if ((await fsp.stat(inner)).isDirectory()) return inner;
    } catch {
      // try the next layout
    }
  }
  return path.join(root, 'lc-local-backend', 'conversations');
}

export function createLettaAdapter(roots: string[] = defaultStoreRoots('letta', currentEnvironment())): SourceAdapter {
  const conversations = new SideDocuments(parseConversation);
  const adapter = createJsonlAdapter('letta', roots, ({ roots: storeRoots, tracker }) => {
    const problem = (file: string, message: string) => tracker.diagnostic({ file, message });
    async function listRoot(root: string, listing: RootListing): Promise<RootOutcome> {
      const dir = await conversationsDir(root);
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
        const file = path.join(dir, folder.name, 'messages.jsonl');
        try {
          const st = await fsp.stat(file);
          const stamp = await conversations.refresh(path.join(dir, folder.name, 'conversation.json'), problem);
          listing.units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs, stamp });
        } catch (err) {
          if (errorCode(err) !== 'ENOENT') tracker.diagnostic({ file, message: `cannot stat: ${errorMessage(err)}` });
        }
      }
      return 'found';
    }
    return {
      parser: new LettaParser((folder) => conversations.get(path.join(folder, 'conversation.json'))?.title ?? null),
      listRoot,
      // ~/.letta also holds logs and memory repos that change all the time: watch the conversations once they exist.
      watchRoots: () =>
        storeRoots.map((root) => {
          const inner = [path.join(root, 'lc-local-backend', 'conversations'), path.join(root, 'conversations')].find((d) => fs.existsSync(d));
          return inner ?? root;
        }),
    };
  });
  // The parser takes titles from the conversation documents this adapter's listing read.
  return { ...adapter, readsListingState: true };
}
