/**
 * POST /sync (token-guarded): "bring the index current, then answer". A one-shot CLI command
 * (`baton list`, `search`) calls it before asking its question, so its answer holds everything an
 * agent wrote before the command started, even an append the watcher has not reported yet
 * (chokidar's debounce). The pass compares each store file's size and mtime with the units table
 * (one query, a stat per file) and reads only what changed: milliseconds when nothing did.
 *
 * While a pass with work runs (the first one, or a big change), it answers 503 at once with that
 * pass's progress instead of holding the request for its whole length: the caller follows it (or,
 * during the first pass, may read what is indexed so far) rather than writing the index beside it.
 * Both answers carry counts only: no paths, no text.
 */
import type { IndexProgress } from '../../../shared/api-types.js';
import type { HttpRoute } from './http-server.js';
import { sendJson } from './http-io.js';

export const SYNC_PATH = '/sync';

/** The body of a 200 from /sync. `read`: null when the running Baton could not say. */
export interface SyncAnswer {
  phase: string;
  read: { files: number; bytes: number } | null;
}

/** The body of a 503 from /sync: the pass that runs now, or the error that stopped ingest. */
export interface SyncBusy {
  phase: IndexProgress['phase'];
  /** False until the running Baton's first pass has ended: its index is still partial. */
  firstPassDone: boolean;
  files: { done: number; total: number };
  bytes: { done: number; total: number };
}

/** What a pass read (the part of ingest's SyncCounters this route reports; null: not known). */
type PassRead = { unitsRead: number; bytesRead: number } | null;

function syncBusy(p: IndexProgress): SyncBusy {
  return {
    phase: p.phase,
    firstPassDone: p.currentAt !== null,
    files: { done: p.filesDone, total: p.filesTotal },
    bytes: { done: p.bytesDone, total: p.bytesTotal },
  };
}

export function createSyncRoute(opts: { progress: () => IndexProgress; syncNow: () => Promise<PassRead> }): HttpRoute {
  return {
    path: SYNC_PATH,
    methods: ['POST'],
    auth: true,
    async handle(_req, res) {
      const progress = opts.progress();
      if (progress.phase !== 'watching') {
        sendJson(res, 503, syncBusy(progress));
        return;
      }
      const read = await opts.syncNow();
      const answer: SyncAnswer = { phase: opts.progress().phase, read: read && { files: read.unitsRead, bytes: read.bytesRead } };
      sendJson(res, 200, answer);
    },
  };
}
