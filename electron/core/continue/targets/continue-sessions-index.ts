/**
 * Continue cn's session index, `<~/.continue>/sessions/sessions.json`: a JSON array of
 * `{sessionId, title, dateCreated (epoch ms as a string), workspaceDirectory, messageCount}` in
 * creation order, which cn (1.5.47, core/util/history.ts) rewrites as `JSON.stringify(list, undefined,
 * 2)` after every turn and reads for `cn ls`. Baton adds its one entry the same way, never dropping
 * another: the file is re-read right before the rename and the write is redone when cn changed it
 * meanwhile. The undo puts the exact bytes back when nothing but Baton's entry changed since, else
 * takes out only Baton's entry.
 */
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../../fs/atomic-write.js';

export interface CnIndexEntry {
  sessionId: string;
  title: string;
  dateCreated: string;
  workspaceDirectory: string;
  messageCount: number;
}

/** What the commit did to sessions.json: enough to give its bytes back. */
export interface CnIndexChange {
  /** The file's text before (null: there was no file). */
  before: string | null;
  after: string;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The index's entries; cn treats an empty file as `[]` and refuses to save over anything else that is not a list. */
export function parseCnIndex(text: string | null, file: string): unknown[] {
  if (text === null || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON (cn itself refuses to save a session until it is fixed); Baton leaves it untouched.`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a list of sessions; Baton leaves it untouched.`);
  return parsed;
}

function modeOf(file: string): number {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return 0o644;
  }
}

/** Writes `next(current)` unless the file changed after it was read (then tries again, a few times). */
function rewrite(file: string, next: (text: string | null) => string | null): { before: string | null; after: string | null } {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = readText(file);
    const after = next(before);
    if (after === before) return { before, after };
    if (readText(file) !== before) continue;
    if (after === null) fs.rmSync(file, { force: true });
    else writeFileAtomic(file, after, modeOf(file));
    return { before, after };
  }
  throw new Error(`${file} kept changing while Baton updated it (a running cn is saving); try again.`);
}

const hasId = (id: string) => (e: unknown) => typeof e === 'object' && e !== null && (e as { sessionId?: unknown }).sessionId === id;

/** Appends `entry` (nothing when an entry with its id is there already). Null: sessions.json was left as it was. */
export function addCnIndexEntry(file: string, entry: CnIndexEntry): CnIndexChange | null {
  const { before, after } = rewrite(file, (text) => {
    const list = parseCnIndex(text, file);
    return list.some(hasId(entry.sessionId)) ? text : JSON.stringify([...list, entry], undefined, 2);
  });
  return after === before || after === null ? null : { before, after };
}

/** Undoes addCnIndexEntry: the bytes from before when the file is as Baton left it, else the list without the entry. */
export function removeCnIndexEntry(file: string, sessionId: string, change: CnIndexChange): void {
  rewrite(file, (text) => {
    if (text === null) return null;
    if (text === change.after) return change.before;
    const list = parseCnIndex(text, file);
    const kept = list.filter((e) => !hasId(sessionId)(e));
    if (kept.length === list.length) return text;
    // cn touched only Baton's entry since (a resume updates its messageCount): the old bytes are right again.
    if (isDeepStrictEqual(kept, parseCnIndex(change.before, file))) return change.before;
    return JSON.stringify(kept, undefined, 2);
  });
}
