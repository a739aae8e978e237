/**
 * Checkpoints, pinned decisions and notes in baton.db. Every write is one transaction committed
 * with synchronous=FULL before the call returns, so "saved" means on disk.
 */
import type Database from 'better-sqlite3';
import type { Checkpoint, CheckpointStatus, GitSnapshot, HandoffTarget } from '../../../shared/api-types.js';
import type { AgentId } from '../../../shared/model.js';
import type { WorkTreeFingerprint } from '../git/git-snapshot.js';
import { openBatonDb, type OpenBatonDbOptions } from './baton-db.js';
import { continuationStore, type ContinuationStore } from './continuations.js';
import { assertCheckpointSize } from './checkpoint-limits.js';
import { createAutoStore, type AutoStore } from './auto-store.js';

/** A checkpoint as saved: the stored one less what baton.db assigns (id, status, receipt times). */
export type NewCheckpoint = Omit<Checkpoint, 'id' | 'status' | 'receivedAt' | 'completedAt' | 'handoff'> & {
  gitFingerprint: WorkTreeFingerprint;
  /** A handoff to a named agent: where it goes, until when, and the brief as handed off. */
  handoff?: { target: Omit<HandoffTarget, 'receivedBy'>; brief: string } | null;
};

export interface Pin {
  sessionId: string;
  seq: number;
  text: string;
  pinnedAt: string;
}

export interface Note {
  id: number;
  sessionId: string;
  text: string;
  createdAt: string;
}

export class CheckpointConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointConflictError';
  }
}

export interface CheckpointRow {
  id: string;
  session_id: string;
  idempotency_token: string | null;
  summary: string;
  decisions: string;
  next_steps: string;
  blockers: string;
  items_completed: string;
  items_added: string;
  files_changed: string;
  git: string | null;
  git_fingerprint: string;
  continues_from: string | null;
  status: CheckpointStatus;
  created_at: string;
  received_at: string | null;
  completed_at: string | null;
  target_agent: AgentId | null;
  project_dir: string | null;
  worktree_root: string | null;
  expires_at: string | null;
  received_by: string | null;
}

export function toHandoffTarget(row: Pick<CheckpointRow, 'target_agent' | 'project_dir' | 'worktree_root' | 'expires_at' | 'received_by'>): HandoffTarget | null {
  if (!row.target_agent || !row.project_dir || !row.expires_at) return null;
  return { agent: row.target_agent, projectDir: row.project_dir, worktreeRoot: row.worktree_root, expiresAt: row.expires_at, receivedBy: row.received_by };
}

export function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    id: row.id,
    sessionId: row.session_id,
    idempotencyToken: row.idempotency_token,
    summary: row.summary,
    decisions: JSON.parse(row.decisions) as string[],
    nextSteps: JSON.parse(row.next_steps) as string[],
    blockers: JSON.parse(row.blockers) as string[],
    itemsCompleted: JSON.parse(row.items_completed) as string[],
    itemsAdded: JSON.parse(row.items_added) as string[],
    filesChanged: JSON.parse(row.files_changed) as string[],
    git: row.git ? (JSON.parse(row.git) as GitSnapshot) : null,
    continuesFrom: row.continues_from,
    status: row.status,
    createdAt: row.created_at,
    receivedAt: row.received_at,
    completedAt: row.completed_at,
    handoff: toHandoffTarget(row),
  };
}

export interface UserData {
  readonly file: string;
  readonly backups: string[];
  /** Inserts a checkpoint, or returns the one already saved under the same idempotency token. */
  saveCheckpoint(input: NewCheckpoint): { checkpoint: Checkpoint; created: boolean };
  findByToken(token: string): Checkpoint | null;
  getCheckpoint(id: string): Checkpoint | null;
  /** Newest first. */
  listCheckpoints(sessionId: string): Checkpoint[];
  latestCheckpoint(sessionId: string): Checkpoint | null;
  /** Each listed session's latest checkpoint time (sessions without one are absent), in one query. */
  latestCheckpointTimes(sessionIds: string[]): Map<string, string>;
  fingerprintOf(checkpointId: string): WorkTreeFingerprint;
  /** pending → received; a no-op on a checkpoint already received or completed. */
  markReceived(id: string, at: string): Checkpoint | null;
  markCompleted(id: string, at: string): Checkpoint | null;
  setPin(pin: Pin): void;
  removePin(sessionId: string, seq: number): boolean;
  listPins(sessionId: string): Pin[];
  addNote(sessionId: string, text: string, at: string): Note;
  /** Pending count, pending older than `staleBefore`, and the last completed handoff. */
  handoffStats(staleBefore: string, now?: string): { pending: number; stalePending: number; lastCompletedAt: string | null; lastCompletedSessionId: string | null };
  listNotes(sessionId: string): Note[];
  /** The brief stored with a handoff checkpoint (null for plain checkpoints). */
  handoffBrief(checkpointId: string): string | null;
  /** Handoffs, newest first: those of a session, or all (for the tray and popover status). */
  listHandoffs(options?: { sessionId?: string; limit?: number }): Checkpoint[];
  /** Unattended continuation: folders switched on and what Baton did there. */
  readonly auto: AutoStore;
  /** Sessions Baton wrote into other agents' stores (continue natively). */
  readonly continuations: ContinuationStore;
  close(): void;
}

export function openUserData(dir: string, options: OpenBatonDbOptions = {}): UserData {
  const { db, file, backups } = openBatonDb(dir, options);
  return createUserData(db, file, backups);
}

export function createUserData(db: Database.Database, file: string, backups: string[]): UserData {
  const insert = db.prepare(`
    INSERT INTO checkpoints (id, session_id, idempotency_token, summary, decisions, next_steps, blockers,
      items_completed, items_added, files_changed, git, git_fingerprint, continues_from, status, created_at,
      target_agent, project_dir, worktree_root, expires_at, brief)
    VALUES (@id, @session_id, @idempotency_token, @summary, @decisions, @next_steps, @blockers,
      @items_completed, @items_added, @files_changed, @git, @git_fingerprint, @continues_from, 'pending', @created_at,
      @target_agent, @project_dir, @worktree_root, @expires_at, @brief)`);
  const briefOf = db.prepare<[string], { brief: string | null }>('SELECT brief FROM checkpoints WHERE id = ?');
  const handoffsOf = db.prepare<[string, number], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE session_id = ? AND target_agent IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const allHandoffs = db.prepare<[number], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE target_agent IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const byToken = db.prepare<[string], CheckpointRow>('SELECT * FROM checkpoints WHERE idempotency_token = ?');
  const byId = db.prepare<[string], CheckpointRow>('SELECT * FROM checkpoints WHERE id = ?');
  const bySession = db.prepare<[string], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE session_id = ? ORDER BY created_at DESC, rowid DESC',
  );
  const latest = db.prepare<[string], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  // A list page asks for up to 1000 sessions at once: one statement, not one per session.
  const latestTimes = db.prepare<[string], { session_id: string; created_at: string }>(
    'SELECT session_id, max(created_at) AS created_at FROM checkpoints WHERE session_id IN (SELECT value FROM json_each(?)) GROUP BY session_id',
  );
  const received = db.prepare("UPDATE checkpoints SET status = 'received', received_at = ? WHERE id = ? AND status = 'pending'");
  const completed = db.prepare(
    "UPDATE checkpoints SET status = 'completed', completed_at = ?, received_at = COALESCE(received_at, ?) WHERE id = ? AND status != 'completed'",
  );
  const upsertPin = db.prepare(
    'INSERT INTO pins (session_id, seq, text, pinned_at) VALUES (?, ?, ?, ?) ON CONFLICT(session_id, seq) DO UPDATE SET text = excluded.text',
  );
  const deletePin = db.prepare('DELETE FROM pins WHERE session_id = ? AND seq = ?');
  const pinsOf = db.prepare<[string], { session_id: string; seq: number; text: string; pinned_at: string }>(
    'SELECT * FROM pins WHERE session_id = ? ORDER BY seq',
  );
  const insertNote = db.prepare('INSERT INTO notes (session_id, text, created_at) VALUES (?, ?, ?)');
  const notesOf = db.prepare<[string], { id: number; session_id: string; text: string; created_at: string }>(
    'SELECT * FROM notes WHERE session_id = ? ORDER BY created_at, id',
  );

  // A handoff to a named agent waits for that agent's next session until it expires: only then has it
  // failed to land; a plain checkpoint has after five minutes.
  const pendingCount = db.prepare<[string, string], { pending: number; stale: number }>(
    `SELECT COUNT(*) AS pending,
       COALESCE(SUM(CASE WHEN target_agent IS NULL THEN created_at < ? ELSE expires_at <= ? END), 0) AS stale
     FROM checkpoints WHERE status = 'pending'`,
  );
  const lastCompleted = db.prepare<[], { completed_at: string; session_id: string }>(
    "SELECT completed_at, session_id FROM checkpoints WHERE status = 'completed' ORDER BY completed_at DESC LIMIT 1",
  );

  let autoStore: AutoStore | null = null;
  let continuations: ContinuationStore | null = null;
  const save = db.transaction((input: NewCheckpoint): { checkpoint: Checkpoint; created: boolean } => {
    if (input.idempotencyToken) {
      const existing = byToken.get(input.idempotencyToken);
      if (existing) {
        if (existing.session_id !== input.sessionId) {
          throw new CheckpointConflictError(
            `Idempotency token already used for a checkpoint of another session (${existing.session_id}).`,
          );
        }
        return { checkpoint: toCheckpoint(existing), created: false };
      }
    }
    // The global Web Crypto, loaded on first use: a start-up hook that only reads never pays for it.
    const id = globalThis.crypto.randomUUID();
    insert.run({
      id,
      session_id: input.sessionId,
      idempotency_token: input.idempotencyToken,
      summary: input.summary,
      decisions: JSON.stringify(input.decisions),
      next_steps: JSON.stringify(input.nextSteps),
      blockers: JSON.stringify(input.blockers),
      items_completed: JSON.stringify(input.itemsCompleted),
      items_added: JSON.stringify(input.itemsAdded),
      files_changed: JSON.stringify(input.filesChanged),
      git: input.git ? JSON.stringify(input.git) : null,
      git_fingerprint: JSON.stringify(input.gitFingerprint),
      continues_from: input.continuesFrom,
      created_at: input.createdAt,
      target_agent: input.handoff?.target.agent ?? null,
      project_dir: input.handoff?.target.projectDir ?? null,
      worktree_root: input.handoff?.target.worktreeRoot ?? null,
      expires_at: input.handoff?.target.expiresAt ?? null,
      brief: input.handoff?.brief ?? null,
    });
    return { checkpoint: toCheckpoint(byId.get(id)!), created: true };
  });
  // IMMEDIATE: take the write lock before the token lookup, so two racing retries cannot both insert.
  const saveImmediate = (input: NewCheckpoint) => {
    // Every door (MCP, CLI, HTTP, handoff) saves through here: the size limit holds for all.
    assertCheckpointSize(input);
    return save.immediate(input);
  };

  return {
    file,
    backups,
    saveCheckpoint: saveImmediate,
    findByToken: (token) => {
      const row = byToken.get(token);
      return row ? toCheckpoint(row) : null;
    },
    getCheckpoint: (id) => {
      const row = byId.get(id);
      return row ? toCheckpoint(row) : null;
    },
    listCheckpoints: (sessionId) => bySession.all(sessionId).map(toCheckpoint),
    latestCheckpointTimes: (sessionIds) => {
      if (sessionIds.length === 0) return new Map();
      const rows = latestTimes.all(JSON.stringify(sessionIds));
      return new Map(rows.map((r) => [r.session_id, r.created_at]));
    },
    latestCheckpoint: (sessionId) => {
      const row = latest.get(sessionId);
      return row ? toCheckpoint(row) : null;
    },
    fingerprintOf: (checkpointId) => {
      const row = byId.get(checkpointId);
      return row ? (JSON.parse(row.git_fingerprint) as Record<string, string | null>) : {};
    },
    markReceived: (id, at) => {
      received.run(at, id);
      const row = byId.get(id);
      return row ? toCheckpoint(row) : null;
    },
    markCompleted: (id, at) => {
      completed.run(at, at, id);
      const row = byId.get(id);
      return row ? toCheckpoint(row) : null;
    },
    setPin: (pin) => {
      upsertPin.run(pin.sessionId, pin.seq, pin.text, pin.pinnedAt);
    },
    removePin: (sessionId, seq) => deletePin.run(sessionId, seq).changes > 0,
    listPins: (sessionId) =>
      pinsOf.all(sessionId).map((r) => ({ sessionId: r.session_id, seq: r.seq, text: r.text, pinnedAt: r.pinned_at })),
    addNote: (sessionId, text, at) => {
      const info = insertNote.run(sessionId, text, at);
      return { id: Number(info.lastInsertRowid), sessionId, text, createdAt: at };
    },
    handoffStats: (staleBefore, now = new Date().toISOString()) => {
      const counts = pendingCount.get(staleBefore, now)!;
      const last = lastCompleted.get();
      return {
        pending: counts.pending,
        stalePending: counts.stale,
        lastCompletedAt: last?.completed_at ?? null,
        lastCompletedSessionId: last?.session_id ?? null,
      };
    },
    listNotes: (sessionId) =>
      notesOf.all(sessionId).map((r) => ({ id: r.id, sessionId: r.session_id, text: r.text, createdAt: r.created_at })),
    handoffBrief: (id) => briefOf.get(id)?.brief ?? null,
    listHandoffs: ({ sessionId, limit = 50 } = {}) =>
      (sessionId ? handoffsOf.all(sessionId, limit) : allHandoffs.all(limit)).map(toCheckpoint),
    // Prepared on first use: a start-up hook that only claims a handoff never needs it.
    get auto() {
      return (autoStore ??= createAutoStore(db));
    },
    get continuations() {
      return (continuations ??= continuationStore(db));
    },
    close: () => db.close(),
  };
}
