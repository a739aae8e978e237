/**
 * The index database layout. `index.db` is a disposable cache of what the agent stores hold, so a
 * schema change simply rebuilds it (bump SCHEMA_VERSION); nothing here is user data.
 *
 * Message rowids encode (session rowid, seq): `id = sessionRowid * 2^24 + seq`. A session's
 * messages are therefore one contiguous rowid range in seq order, so paging a 20,000-message
 * transcript is a range scan on the primary key, with no extra (session, seq) index to store.
 *
 * Search uses FTS5 with the unicode61 word tokenizer over a JS-prepared form of the text that
 * also finds CJK substrings and camelCase parts (see fts-text.ts for the why). The FTS table is
 * contentless (`contentless_delete=1`): the text lives once, in `messages`, and rows are deleted
 * by rowid alone.
 */

// 8: parent_kind (what a parent link means); 9: limit hits recorded from API-error records (Claude, Codex task_complete, Qwen telemetry, pi, OpenCode);
// 10: no (role, kind) index on messages (a filtered page walks the session's id range instead).
export const SCHEMA_VERSION = 10;

/** Messages per session the rowid encoding allows (2^24 ≈ 16.7 M). */
export const SEQ_SPAN = 16_777_216;

/** Tool outputs are stored up to this many characters (the rest is dropped, with a marker). */
export const STORED_TOOL_OUTPUT_CHARS = 16_384;
/** Any other message text is stored up to this many characters. */
export const STORED_TEXT_CHARS = 262_144;
/**
 * FTS upkeep is done by the writer with single-row statements, not by triggers on `messages`: a
 * trigger makes every message write open a statement savepoint, and FTS5 flushes its pending terms
 * to a new segment at each savepoint, which made indexing ~3× slower.
 */
export const FTS_INSERT_SQL = 'INSERT INTO message_fts (rowid, body) VALUES (?, ?)';
export const FTS_DELETE_SQL = 'DELETE FROM message_fts WHERE rowid = ?';

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
  -- What parent_id means: 'subagent' (counts in the parent's usage) or 'fork'; NULL: not said.
  parent_kind TEXT,
  source_path TEXT NOT NULL DEFAULT '',
  bytes INTEGER NOT NULL DEFAULT 0,
  source_gone INTEGER NOT NULL DEFAULT 0,
  unit_key TEXT,
  -- JSON [[first, last], …] seqs off the current conversation (pi's /tree branches); NULL: none.
  other_branches TEXT
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
-- No index on (role, kind): a filtered page ("the last 20 user texts") walks the session's id range,
-- reading only the columns stored before the text (no overflow pages), and a cold index writes ~25 % faster
-- without a second B-tree to keep.

-- Per-unit read cursors, saved in the same transaction as the rows they produced.
CREATE TABLE IF NOT EXISTS units (
  key TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  path TEXT NOT NULL,
  cursor TEXT,
  -- size/mtime as last fully read; NULL while a read is unfinished, so it resumes from the cursor.
  synced_size INTEGER,
  synced_mtime REAL,
  synced_stamp TEXT,
  bytes_read INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT
);

-- Per-request token usage (see UsageEvent), keyed within the session; a session's rows go with it.
CREATE TABLE IF NOT EXISTS usage_events (
  session_rowid INTEGER NOT NULL,
  key TEXT NOT NULL,
  at TEXT,
  model TEXT,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  reasoning INTEGER NOT NULL DEFAULT 0,
  context_window INTEGER,
  limits TEXT,
  PRIMARY KEY (session_rowid, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_events_at ON usage_events (at);

-- Files that could not be read (wholly), one row per unit and kind, until the file reads cleanly
-- again (see read-problems.ts), so every process reports them, not only the one that met them.
CREATE TABLE IF NOT EXISTS problems (
  unit_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  agent TEXT NOT NULL,
  host TEXT,
  file TEXT NOT NULL,
  message TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 1,
  line INTEGER,
  byte_offset INTEGER,
  since TEXT NOT NULL,
  PRIMARY KEY (unit_key, kind)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5(
  body,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
`;
