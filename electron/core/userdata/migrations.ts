/**
 * baton.db schema history. Each entry moves the schema from version i to i+1 and is never edited
 * once shipped: a new need is a new entry. `PRAGMA user_version` records how far a file has come.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'checkpoints and pinned decisions',
    sql: `
      CREATE TABLE checkpoints (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        idempotency_token TEXT UNIQUE,
        summary TEXT NOT NULL,
        decisions TEXT NOT NULL DEFAULT '[]',
        next_steps TEXT NOT NULL DEFAULT '[]',
        blockers TEXT NOT NULL DEFAULT '[]',
        items_completed TEXT NOT NULL DEFAULT '[]',
        items_added TEXT NOT NULL DEFAULT '[]',
        files_changed TEXT NOT NULL DEFAULT '[]',
        git TEXT,
        continues_from TEXT,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'received', 'completed')),
        created_at TEXT NOT NULL,
        received_at TEXT,
        completed_at TEXT
      );
      CREATE INDEX checkpoints_by_session ON checkpoints(session_id, created_at);
      CREATE TABLE pins (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    version: 2,
    description: 'notes, and work-tree fingerprints for precise drift',
    sql: `
      ALTER TABLE checkpoints ADD COLUMN git_fingerprint TEXT NOT NULL DEFAULT '{}';
      CREATE TABLE notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX notes_by_session ON notes(session_id, created_at);
    `,
  },
  {
    version: 3,
    description: 'handoffs to a target agent: folder, expiry, who received it, the brief as handed off',
    sql: `
      ALTER TABLE checkpoints ADD COLUMN target_agent TEXT;
      ALTER TABLE checkpoints ADD COLUMN project_dir TEXT;
      ALTER TABLE checkpoints ADD COLUMN worktree_root TEXT;
      ALTER TABLE checkpoints ADD COLUMN expires_at TEXT;
      ALTER TABLE checkpoints ADD COLUMN received_by TEXT;
      ALTER TABLE checkpoints ADD COLUMN brief TEXT;
      CREATE INDEX checkpoints_handoffs ON checkpoints(target_agent, status) WHERE target_agent IS NOT NULL;
    `,
  },
  {
    version: 4,
    description: 'continuations: sessions Baton wrote into another agent\'s store, what it wrote (to undo), linked to their source',
    sql: `
      CREATE TABLE continuations (
        target_session TEXT PRIMARY KEY,
        source_session TEXT NOT NULL,
        target_agent TEXT NOT NULL,
        plan_key TEXT NOT NULL UNIQUE,
        cwd TEXT NOT NULL,
        resume TEXT NOT NULL,
        undo TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX continuations_by_source ON continuations(source_session);
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
