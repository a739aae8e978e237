/**
 * The index database layout. `index.db` is a disposable cache of what the agent stores hold, so a
 * schema change simply rebuilds it (bump SCHEMA_VERSION); nothing here is user data.
 *
 * Message rowids encode (session rowid, seq): `id = sessionRowid * 2^24 + seq`. A session's
 * messages are therefore one contiguous rowid range in seq order, so paging a 20,000-message
 * transcript is a range scan on the primary key, with no extra (session, seq) index to store.
 *
 * Search uses FTS5 with the trigram tokenizer: it finds substrings, code identifiers and CJK text
 * (which has no spaces for a word tokenizer to split on) alike. Trigrams cannot match terms shorter
 * than three characters; the search layer handles those with a bounded LIKE filter instead.
 * The FTS table is external-content over a view, so indexed text is not stored twice.
 */

export const SCHEMA_VERSION = 2;

/** Messages per session the rowid encoding allows (2^24 ≈ 16.7 M). */
export const SEQ_SPAN = 16_777_216;

/** Tool outputs are stored up to this many characters (the rest is dropped, with a marker). */
export const STORED_TOOL_OUTPUT_CHARS = 16_384;
/** Any other message text is stored up to this many characters. */
export const STORED_TEXT_CHARS = 262_144;
/** Only the first 4 KB (characters) of a tool output are searchable. */
export const INDEXED_TOOL_OUTPUT_CHARS = 4096;

/** What FTS indexes for a message row; the same expression feeds the view and the triggers. */
function ftsBody(row: 'param' | null): string {
  const c = (name: string) => (row ? `@${name}` : name);
  return `CASE ${c('kind')}
      WHEN 'tool_call' THEN coalesce(${c('tool_name')}, '') || ' ' || ${c('text')}
      WHEN 'tool_result' THEN substr(${c('text')}, 1, ${INDEXED_TOOL_OUTPUT_CHARS})
      ELSE ${c('text')} END`;
}

/** Thinking is left out of search: it is noise next to what was said and done. */
export const FTS_INDEXED_KIND = (kind: string): boolean => kind !== 'thinking';

/**
 * FTS upkeep is done by the writer with single-row statements, not by triggers on `messages`: a
 * trigger makes every message write open a statement savepoint, and FTS5 flushes its pending terms
 * to a new segment at each savepoint, which made indexing ~3× slower. The body expression is the
 * view's, over @kind/@tool_name/@text, so deletes always remove exactly what was indexed.
 */
export const FTS_INSERT_SQL = `INSERT INTO message_fts (rowid, body) VALUES (@id, ${ftsBody('param')})`;
export const FTS_DELETE_SQL = `INSERT INTO message_fts (message_fts, rowid, body) VALUES ('delete', @id, ${ftsBody('param')})`;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS sessions (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  agent TEXT NOT NULL,
  native_id TEXT NOT NULL,
  title TEXT,
  cwd TEXT,
  git_branch TEXT,
  git_commit TEXT,
  model TEXT,
  started_at TEXT,
  updated_at TEXT,
  first_prompt TEXT,
  user_turns INTEGER NOT NULL DEFAULT 0,
  message_count INTEGER NOT NULL DEFAULT 0,
  tool_names TEXT NOT NULL DEFAULT '[]',
  usage TEXT NOT NULL DEFAULT '{}',
  parent_id TEXT,
  source_path TEXT NOT NULL DEFAULT '',
  bytes INTEGER NOT NULL DEFAULT 0,
  source_gone INTEGER NOT NULL DEFAULT 0,
  unit_key TEXT
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at DESC, rowid DESC);
CREATE INDEX IF NOT EXISTS sessions_agent_updated ON sessions (agent, updated_at DESC);
CREATE INDEX IF NOT EXISTS sessions_native ON sessions (native_id);
CREATE INDEX IF NOT EXISTS sessions_unit ON sessions (unit_key);

CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY,
  role TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  tool_name TEXT,
  tool_call_id TEXT,
  is_error INTEGER NOT NULL DEFAULT 0,
  timestamp TEXT,
  native_id TEXT
);
-- Filtered paging (e.g. "the last 20 user texts") walks this index within the session's id range.
CREATE INDEX IF NOT EXISTS messages_role_kind ON messages (role, kind, id);

-- Per-unit read cursors, saved in the same transaction as the rows they produced.
CREATE TABLE IF NOT EXISTS units (
  key TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  path TEXT NOT NULL,
  cursor TEXT,
  -- size/mtime as last fully read; NULL while a read is unfinished, so it resumes from the cursor.
  synced_size INTEGER,
  synced_mtime REAL,
  bytes_read INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT
);

CREATE VIEW IF NOT EXISTS message_fts_content AS
  SELECT id, ${ftsBody(null)} AS body FROM messages;

CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5(
  body,
  content = 'message_fts_content',
  content_rowid = 'id',
  tokenize = 'trigram case_sensitive 0 remove_diacritics 1'
);
`;
