/**
 * Queries against an OpenCode `opencode*.db` (or Kilo Code's `kilo.db`, the same schema): 1.x tables session, message, part, and the 2.x tables
 * session_v2, session_message that 2.0 writes beside them (the 1.x ones stay, frozen, and migrated
 * sessions keep their ids; a session with session_message rows is read from those). Two steps, each
 * run by the caller inside one read transaction:
 *   planChanges  – which sessions changed since the cursor (high-water marks on time_updated, message
 *                  counts), which are gone, and the new marks;
 *   loadSessions – full rows of some changed sessions, normalized, up to a message budget.
 * Columns are probed with PRAGMA table_info; a missing `time_updated` degrades to "every session is
 * re-read" with a diagnostic instead of failing.
 */
import { groupRows, inListQuery, requireColumns, SqliteReadError, tableColumns, type ReadonlyDb } from '../sqlite/sqlite-readonly.js';
import { MARKED_TABLES, titleDigest, type Mark, type MarkedTable, type OpenCodeDbCursor } from './cursor.js';
import { normalizeOpenCodeV2Session, type OpenCodeV2MessageRow } from './normalize-v2.js';
import {
  normalizeOpenCodeSession,
  parseObject,
  type JsonObject,
  type NormalizedSession,
  type OpenCodeFamily,
  type OpenCodeMessageRow,
  type OpenCodePartRow,
  type OpenCodeSessionInfo,
} from './normalize.js';

/** Columns per table; an empty set for a table the database does not have. */
export type Schema = Record<MarkedTable, Set<string>>;

export function probeSchema(db: ReadonlyDb, file: string): Schema {
  // 1.x tables are required until 2.x's message table exists (1.18 already creates it, empty);
  // a table that exists must have what the reader needs either way.
  const twoX = tableColumns(db, 'session_message').size > 0;
  const table = (name: MarkedTable, required: string[], needed: boolean) =>
    needed || tableColumns(db, name).size > 0 ? requireColumns(db, file, name, required) : new Set<string>();
  const schema: Schema = {
    session: table('session', ['id'], !twoX),
    message: table('message', ['id', 'session_id', 'data'], !twoX),
    part: table('part', ['id', 'message_id', 'data'], !twoX),
    session_v2: table('session_v2', ['id'], false),
    session_message: table('session_message', ['id', 'session_id', 'type', 'seq', 'data'], false),
  };
  if (!schema.session.has('id') && !schema.session_v2.has('id')) {
    throw new SqliteReadError(file, 'unknown schema: neither "session_v2" nor "session" has an id column', false);
  }
  return schema;
}

const has = (schema: Schema, table: MarkedTable) => schema[table].size > 0;

export interface Plan {
  changed: string[];
  gone: string[];
  marks: Record<MarkedTable, Mark>;
  /** Title digest of every session present (2.x row wins), for the cursor. */
  titles: Record<string, string>;
  /** Payload bytes fetched while planning. */
  bytes: number;
}

/** SQL expression giving a part's session id, with or without the `part.session_id` column. */
function partSessionExpr(schema: Schema): string {
  return schema.part.has('session_id') ? 'session_id' : '(SELECT m.session_id FROM message m WHERE m.id = part.message_id)';
}

function sessionExpr(table: MarkedTable, schema: Schema): string {
  if (table === 'session' || table === 'session_v2') return 'id';
  if (table === 'part') return partSessionExpr(schema);
  return 'session_id';
}

export function planChanges(
  db: ReadonlyDb,
  file: string,
  cursor: OpenCodeDbCursor,
  warn: (message: string) => void,
): Plan {
  const schema = probeSchema(db, file);
  const changed = new Set<string>();
  const marks = { ...cursor.marks };
  let bytes = 0;

  for (const table of MARKED_TABLES) {
    if (!has(schema, table)) continue;
    const sid = sessionExpr(table, schema);
    if (!schema[table].has('time_updated')) {
      warn(`unknown schema: table "${table}" lacks column time_updated; every session is re-read on each change`);
      for (const r of db.prepare(`SELECT DISTINCT ${sid} AS sid FROM ${table}`).all() as { sid: string | null }[]) {
        if (r.sid) changed.add(r.sid);
      }
      continue;
    }
    const mark = cursor.marks[table];
    const seenAtMark = new Set(mark.ids);
    let next: Mark = { t: mark.t, ids: [...mark.ids] };
    const rows = db
      .prepare(`SELECT ${sid} AS sid, time_updated AS t, id FROM ${table} WHERE time_updated >= ?`)
      .iterate(mark.t) as IterableIterator<{ sid: string | null; t: number; id: string }>;
    for (const r of rows) {
      bytes += r.id.length + 8 + (r.sid?.length ?? 0);
      if ((r.t > mark.t || !seenAtMark.has(r.id)) && r.sid) changed.add(r.sid);
      if (r.t > next.t) next = { t: r.t, ids: [r.id] };
      else if (r.t === next.t && !next.ids.includes(r.id)) next.ids.push(r.id);
    }
    marks[table] = next;
  }

  const present = sessionIds(db, schema);
  // Message rows per session, from the table its messages are read from (session_message first).
  const counts = new Map<string, number>();
  for (const table of ['message', 'session_message'] as const) {
    if (!schema[table].has('session_id')) continue;
    for (const r of db.prepare(`SELECT session_id AS sid, count(*) AS n FROM ${table} GROUP BY session_id`).all() as { sid: string; n: number }[]) {
      counts.set(r.sid, r.n);
    }
  }
  // Reconcile: deleted messages (revert) or sessions the cursor never delivered.
  for (const id of present) {
    const known = cursor.known[id];
    if (known === undefined || known !== (counts.get(id) ?? 0)) changed.add(id);
  }
  for (const id of cursor.pending) changed.add(id);
  // Renamed: the title is rewritten in place, time_updated untouched.
  const titles = sessionTitles(db, schema);
  for (const [id, digest] of Object.entries(titles)) {
    bytes += id.length + digest.length;
    if (cursor.titles[id] !== digest) changed.add(id);
  }
  const gone = Object.keys(cursor.known).filter((id) => !present.has(id));
  const changedPresent = [...changed].filter((id) => present.has(id)).sort();
  return { changed: changedPresent, gone, marks, titles, bytes };
}

function sessionTitles(db: ReadonlyDb, schema: Schema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of ['session', 'session_v2'] as const) {
    if (!schema[table].has('id')) continue;
    const title = schema[table].has('title') ? 'title' : 'NULL AS title';
    for (const r of db.prepare(`SELECT id, ${title} FROM ${table}`).all() as { id: string; title: unknown }[]) {
      out[r.id] = titleDigest(typeof r.title === 'string' ? r.title : null);
    }
  }
  return out;
}

/** Every session id the database holds, in either generation's table. */
export function sessionIds(db: ReadonlyDb, schema?: Pick<Schema, 'session' | 'session_v2'>): Set<string> {
  const ids = new Set<string>();
  for (const table of ['session', 'session_v2'] as const) {
    if ((schema?.[table] ?? tableColumns(db, table)).has('id')) for (const id of db.prepare(`SELECT id FROM ${table}`).pluck().all() as string[]) ids.add(id);
  }
  return ids;
}

export interface LoadedSession {
  nativeId: string;
  /** null when the session row vanished between planning and loading. */
  normalized: NormalizedSession | null;
  messageRows: number;
}

export interface Loaded {
  sessions: LoadedSession[];
  bytes: number;
}

function orNull<T>(value: unknown, ok: (v: unknown) => v is T): T | null {
  return ok(value) ? value : null;
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';

/** Sessions fetched per query (one statement per table for a chunk of sessions). */
const SESSIONS_PER_QUERY = 64;

/**
 * Loads and normalizes sessions from `queue[from]` on, a chunk of sessions per query, until `budget`
 * messages are reached (at least one chunk, however large). `warn` reports unparsable rows.
 */
export function loadSessions(
  db: ReadonlyDb,
  file: string,
  queue: readonly string[],
  from: number,
  budget: number,
  warn: (message: string) => void,
  agent: OpenCodeFamily = 'opencode',
): Loaded {
  const schema = probeSchema(db, file);
  type Raw = { sid: string; id: string; data: string };
  const none = () => [];
  const sessionsIn = (table: 'session' | 'session_v2') => {
    if (!schema[table].has('id')) return none;
    const col = (name: string) => (schema[table].has(name) ? name : `NULL AS ${name}`);
    return inListQuery<Record<string, unknown> & { id: string }>(
      db,
      (list) => `SELECT id, ${col('parent_id')}, ${col('directory')}, ${col('title')}, ${col('time_created')}, ${col('time_updated')}, ${col('model')} FROM ${table} WHERE id IN (${list})`,
    );
  };
  const v2SessionsIn = sessionsIn('session_v2');
  const v1SessionsIn = sessionsIn('session');
  const created = (table: MarkedTable) => (schema[table].has('time_created') ? 'time_created' : 'NULL AS time_created');
  const messagesIn = has(schema, 'message')
    ? inListQuery<Raw & { time_created: number | null }>(db, (list) => `SELECT session_id AS sid, id, ${created('message')}, data FROM message WHERE session_id IN (${list})`)
    : none;
  const partsIn = !has(schema, 'part')
    ? none
    : schema.part.has('session_id')
      ? inListQuery<Raw & { message_id: string }>(db, (list) => `SELECT session_id AS sid, id, message_id, data FROM part WHERE session_id IN (${list})`)
      : inListQuery<Raw & { message_id: string }>(db, (list) => `SELECT m.session_id AS sid, p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id IN (${list})`);
  const v2MessagesIn = has(schema, 'session_message')
    ? inListQuery<Raw & { type: string; time_created: number | null }>(
        db,
        (list) => `SELECT session_id AS sid, id, type, ${created('session_message')}, data FROM session_message WHERE session_id IN (${list}) ORDER BY session_id, seq`,
      )
    : none;

  const out: LoadedSession[] = [];
  let bytes = 0;
  let messages = 0;
  for (let i = from; i < queue.length && (out.length === 0 || messages < budget); i += SESSIONS_PER_QUERY) {
    const ids = queue.slice(i, i + SESSIONS_PER_QUERY);
    // 2.x rows win: a migrated session keeps its id in both generations.
    const rowsById = new Map(v1SessionsIn(ids).map((r) => [r.id, r]));
    for (const r of v2SessionsIn(ids)) rowsById.set(r.id, r);
    const v2ById = groupRows(v2MessagesIn(ids), (r) => r.sid);
    const messagesById = groupRows(messagesIn(ids), (r) => r.sid);
    const partsById = groupRows(partsIn(ids), (r) => r.sid);
    for (const nativeId of ids) {
      const row = rowsById.get(nativeId);
      if (!row) {
        out.push({ nativeId, normalized: null, messageRows: 0 });
        continue;
      }
      const info: OpenCodeSessionInfo = {
        agent,
        id: nativeId,
        parentId: orNull(row.parent_id, isString),
        directory: orNull(row.directory, isString),
        title: orNull(row.title, isString),
        timeCreated: orNull(row.time_created, isNumber),
        timeUpdated: orNull(row.time_updated, isNumber),
        model: orNull(row.model, isString),
      };
      const v2 = v2ById.get(nativeId);
      if (v2) {
        const m = parseRows(v2, 'message', nativeId, warn, (r, data): OpenCodeV2MessageRow => ({ id: r.id, type: String(r.type), timeCreated: r.time_created, data }));
        const normalized = normalizeOpenCodeV2Session(info, m.rows, file, m.bytes);
        bytes += m.bytes;
        messages += normalized.messages.length;
        out.push({ nativeId, normalized, messageRows: v2.length });
        continue;
      }
      // Raw row count (unparsable rows included): the cursor compares it with count(*) FROM message.
      const raw = messagesById.get(nativeId) ?? [];
      const m = parseRows(raw, 'message', nativeId, warn, (r, data): OpenCodeMessageRow => ({ id: r.id, timeCreated: r.time_created, data }));
      const p = parseRows(partsById.get(nativeId) ?? [], 'part', nativeId, warn, (r, data): OpenCodePartRow => ({ id: r.id, messageId: r.message_id, data }));
      const normalized = normalizeOpenCodeSession(info, m.rows, p.rows, file, m.bytes + p.bytes);
      bytes += m.bytes + p.bytes;
      messages += normalized.messages.length;
      out.push({ nativeId, normalized, messageRows: raw.length });
    }
  }
  return { sessions: out, bytes };
}

/** The rows whose `data` is a JSON object, made into `T`s (the others reported and skipped), and the bytes read. */
function parseRows<R extends { id: string; data: string }, T>(
  raw: readonly R[],
  what: string,
  sessionId: string,
  warn: (message: string) => void,
  make: (row: R, data: JsonObject) => T,
): { rows: T[]; bytes: number } {
  const rows: T[] = [];
  let bytes = 0;
  for (const r of raw) {
    bytes += r.id.length + (r.data?.length ?? 0);
    const data = parseObject(r.data);
    if (data) rows.push(make(r, data));
    else warn(`${what} ${r.id} of session ${sessionId}: data is not a JSON object, skipped`);
  }
  return { rows, bytes };
}
