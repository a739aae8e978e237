/**
 * Queries against a Hermes `state.db` (tables sessions, messages), each run by the caller inside one
 * read transaction. Hermes auto-migrates its schema only on writable opens, so a read-only reader
 * meets every version from v11 to v30+: every optional column is probed with PRAGMA table_info.
 */
import crypto from 'node:crypto';
import { groupRows, inListQuery, requireColumns, type ReadonlyDb } from '../sqlite/sqlite-readonly.js';
import type { HermesCursor } from './cursor.js';
import { normalizeHermesSession, type HermesMessageRow, type HermesSessionRow, type NormalizedHermesSession } from './normalize.js';

/** Session columns whose change means the session must be re-emitted (those that exist are used). */
const FINGERPRINT_COLUMNS = [
  'title', 'started_at', 'ended_at', 'end_reason', 'message_count', 'tool_call_count', 'input_tokens',
  'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'cwd', 'git_branch',
  'model', 'parent_session_id', 'last_activity_at', 'updated_at', 'rewind_count', 'archived', 'hidden',
] as const;

/** Session columns the normalizer reads. */
const SESSION_COLUMNS = [
  'title', 'cwd', 'git_branch', 'model', 'parent_session_id', 'started_at', 'ended_at', 'last_activity_at',
  'updated_at', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens',
] as const;

interface Schema {
  sessions: Set<string>;
  messages: Set<string>;
}

function probe(db: ReadonlyDb, file: string): Schema {
  return {
    sessions: requireColumns(db, file, 'sessions', ['id']),
    messages: requireColumns(db, file, 'messages', ['id', 'session_id', 'role']),
  };
}

export interface HermesPlan {
  changed: string[];
  gone: string[];
  maxId: number;
  fingerprints: Map<string, string>;
  bytes: number;
}

export function planHermesChanges(db: ReadonlyDb, file: string, cursor: HermesCursor): HermesPlan {
  const schema = probe(db, file);
  const fpCols = FINGERPRINT_COLUMNS.filter((c) => schema.sessions.has(c));
  const fingerprints = new Map<string, string>();
  let bytes = 0;
  const select = `SELECT id${fpCols.map((c) => `, ${c}`).join('')} FROM sessions`;
  for (const row of db.prepare(select).raw(true).iterate() as IterableIterator<unknown[]>) {
    const json = JSON.stringify(row);
    bytes += json.length;
    fingerprints.set(String(row[0]), crypto.createHash('sha1').update(json).digest('base64').slice(0, 16));
  }
  const changed = new Set<string>();
  for (const r of db.prepare('SELECT DISTINCT session_id AS sid FROM messages WHERE id > ?').all(cursor.maxId) as { sid: string }[]) {
    changed.add(r.sid);
  }
  const maxRow = db.prepare('SELECT max(id) AS m FROM messages').get() as { m: number | null };
  const maxId = Math.max(cursor.maxId, maxRow.m ?? 0);
  for (const [id, fp] of fingerprints) if (cursor.known[id]?.fp !== fp) changed.add(id);
  for (const id of cursor.pending) changed.add(id);
  const gone = Object.keys(cursor.known).filter((id) => !fingerprints.has(id));
  return { changed: [...changed].filter((id) => fingerprints.has(id)).sort(), gone, maxId, fingerprints, bytes };
}

export interface LoadedHermesSession {
  nativeId: string;
  normalized: NormalizedHermesSession | null;
  rows: number;
  lastId: number;
}

/** Sessions fetched per query: one statement for many small sessions instead of two each (~2× faster). */
const SESSIONS_PER_QUERY = 64;

export function loadHermesSessions(
  db: ReadonlyDb,
  file: string,
  queue: readonly string[],
  from: number,
  budget: number,
): { sessions: LoadedHermesSession[]; bytes: number } {
  const schema = probe(db, file);
  const sCols = SESSION_COLUMNS.filter((c) => schema.sessions.has(c));
  const m = schema.messages;
  const opt = (name: string, as: string = name) => (m.has(name) ? `${name} AS ${as}` : `NULL AS ${as}`);
  const reasoning = m.has('reasoning') ? (m.has('reasoning_content') ? 'COALESCE(reasoning, reasoning_content)' : 'reasoning') : m.has('reasoning_content') ? 'reasoning_content' : 'NULL';
  // Live context plus archived pre-compaction history (what Hermes' own UIs show).
  const visible = m.has('active') ? (m.has('compacted') ? 'AND (active = 1 OR compacted = 1)' : 'AND active = 1') : '';
  const sessionsIn = inListQuery<HermesSessionRow>(db, (list) => `SELECT id${sCols.map((c) => `, ${c}`).join('')} FROM sessions WHERE id IN (${list})`);
  const messagesIn = inListQuery<HermesMessageRow & { sid: string }>(
    db,
    (list) => `SELECT session_id AS sid, id, role, ${opt('content')}, ${opt('tool_call_id')}, ${opt('tool_calls')}, ${opt('tool_name')}, ${opt('timestamp')}, ${reasoning} AS reasoning, ${opt('display_kind')}, ${opt('_compressed_summary', 'compressed_summary')}
       FROM messages WHERE session_id IN (${list}) ${visible} ORDER BY session_id, id`,
  );
  const out: LoadedHermesSession[] = [];
  let bytes = 0;
  let messages = 0;
  for (let i = from; i < queue.length && (out.length === 0 || messages < budget); i += SESSIONS_PER_QUERY) {
    const ids = queue.slice(i, i + SESSIONS_PER_QUERY);
    const sessionRows = new Map(sessionsIn(ids).map((r) => [r.id, r]));
    const rowsBySession = groupRows(messagesIn(ids), (r) => r.sid);
    for (const nativeId of ids) {
      const row = sessionRows.get(nativeId);
      if (!row) {
        out.push({ nativeId, normalized: null, rows: 0, lastId: 0 });
        continue;
      }
      const rows = rowsBySession.get(nativeId) ?? [];
      let sessionBytes = 0;
      for (const r of rows) {
        sessionBytes += 16 + (r.content?.length ?? 0) + (r.tool_calls?.length ?? 0) + (r.reasoning?.length ?? 0);
      }
      const normalized = normalizeHermesSession(row, rows, file, sessionBytes);
      bytes += sessionBytes;
      messages += normalized.messages.length;
      out.push({ nativeId, normalized, rows: rows.length, lastId: rows.length > 0 ? rows[rows.length - 1]!.id : 0 });
    }
  }
  return { sessions: out, bytes };
}
