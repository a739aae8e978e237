/**
 * POST /sync (token-guarded): "bring the index current, then answer". A one-shot CLI command
 * (`baton list`, `search`) calls it before asking its question, so its answer holds everything an
 * agent wrote before the command started, even an append the watcher has not reported yet
 * (chokidar's debounce). The pass compares each store file's size and mtime with the units table
 * (one query, a stat per file) and reads only what changed: milliseconds when nothing did.
 * 503 while the first pass runs (or failed): the caller then opens the index itself.
 * The answer says what the pass read (`baton index` prints it), as counts only: no paths, no text.
 */
import type { HttpRoute } from './http-server.js';
import { sendJson } from './http-io.js';

export const SYNC_PATH = '/sync';

/** The body of a 200 from /sync. `read`: null when the running Baton could not say. */
export interface SyncAnswer {
  phase: string;
  read: { files: number; bytes: number } | null;
}

/** What a pass read (the part of ingest's SyncCounters this route reports; null: not known). */
type PassRead = { unitsRead: number; bytesRead: number } | null;

export function createSyncRoute(opts: { phase: () => string; syncNow: () => Promise<PassRead> }): HttpRoute {
  return {
    path: SYNC_PATH,
    methods: ['POST'],
    auth: true,
    async handle(_req, res) {
      const phase = opts.phase();
      if (phase !== 'watching') {
        sendJson(res, 503, { phase });
        return;
      }
      const read = await opts.syncNow();
      const answer: SyncAnswer = { phase: opts.phase(), read: read && { files: read.unitsRead, bytes: read.bytesRead } };
      sendJson(res, 200, answer);
    },
  };
}
