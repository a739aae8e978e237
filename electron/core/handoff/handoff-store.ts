/**
 * baton.db as a start-up hook sees it: opened without the integrity probe and migrations of the
 * app's opener (a hook runs at every agent start and must stay cheap), only when the file exists
 * and is at the schema this code knows. The app and `baton handoff` create and migrate the file;
 * a hook never does.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AgentId } from '../../../shared/model.js';
import { BATON_DB_FILE } from '../userdata/baton-db.js';
import { LATEST_VERSION } from '../userdata/migrations.js';
import { createUserData, toCheckpoint, type CheckpointRow, type UserData } from '../userdata/user-data.js';
import type { Checkpoint } from '../../../shared/api-types.js';

export class HookStoreUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookStoreUnavailable';
  }
}

export interface PendingHandoffRow {
  id: string;
  session_id: string;
  project_dir: string;
  worktree_root: string | null;
  created_at: string;
  brief: string | null;
}

export interface HandoffStore {
  /** Pending handoffs for `agent` that have not expired at `now`, newest first. */
  pendingFor(agent: AgentId, now: string): PendingHandoffRow[];
  /** pending → received by `receivedBy`; false when another session took it first. */
  claim(id: string, receivedBy: string, at: string): boolean;
  /** Handoffs received by this session and not completed (re-injected after a compaction). */
  receivedBy(receivedBy: string): (PendingHandoffRow & Pick<CheckpointRow, 'status'>)[];
  getCheckpoint(id: string): Checkpoint | null;
  /** Checkpoints and the rest, for the PreCompact hook's automatic checkpoint. */
  userData(): UserData;
  close(): void;
}

/** Opens baton.db for a hook; null when there is none yet (so nothing can be pending). */
export function openHandoffStore(dataDir: string): HandoffStore | null {
  const file = path.join(dataDir, BATON_DB_FILE);
  if (!fs.existsSync(file)) return null;
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 2000');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version !== LATEST_VERSION) {
      throw new HookStoreUnavailable(
        `${file} is at schema version ${version}, this Baton expects ${LATEST_VERSION}; start Baton (or run \`baton list\`) once to bring it up to date.`,
      );
    }
    db.pragma('synchronous = FULL');
  } catch (err) {
    db.close();
    throw err;
  }
  return handoffStoreOn(db, file);
}

export function handoffStoreOn(db: Database.Database, file: string): HandoffStore {
  const columns = 'id, session_id, project_dir, worktree_root, created_at, brief';
  const pending = db.prepare<[AgentId, string], PendingHandoffRow>(
    `SELECT ${columns} FROM checkpoints WHERE target_agent = ? AND status = 'pending' AND expires_at > ? ORDER BY created_at DESC, rowid DESC`,
  );
  const claim = db.prepare(
    "UPDATE checkpoints SET status = 'received', received_at = ?, received_by = ? WHERE id = ? AND status = 'pending'",
  );
  const received = db.prepare<[string], PendingHandoffRow & Pick<CheckpointRow, 'status'>>(
    `SELECT ${columns}, status FROM checkpoints WHERE received_by = ? AND status = 'received' ORDER BY received_at DESC`,
  );
  const byId = db.prepare<[string], CheckpointRow>('SELECT * FROM checkpoints WHERE id = ?');
  let data: UserData | null = null;
  return {
    pendingFor: (agent, now) => pending.all(agent, now),
    claim: (id, receivedBy, at) => claim.run(at, receivedBy, id).changes === 1,
    receivedBy: (who) => received.all(who),
    getCheckpoint: (id) => {
      const row = byId.get(id);
      return row ? toCheckpoint(row) : null;
    },
    userData: () => (data ??= createUserData(db, file, [])),
    close: () => db.close(),
  };
}
