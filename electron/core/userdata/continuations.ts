/**
 * Continuations in baton.db: each session Baton wrote into another agent's store, linked to the
 * session it continues, with what it wrote (the writer's undo steps, as JSON) so `--undo` removes
 * exactly that. Keyed by the target session id; `plan_key` makes a repeat of the same source state
 * into the same agent find the session already written.
 */
import type Database from 'better-sqlite3';

export interface ContinuationRecord {
  /** `<agent>:<nativeId>` of the session Baton wrote. */
  targetSession: string;
  sourceSession: string;
  targetAgent: string;
  planKey: string;
  cwd: string;
  resume: string[];
  /** The writer's undo steps, as JSON (continue/ parses them). */
  undoJson: string;
  createdAt: string;
}

interface Row {
  target_session: string;
  source_session: string;
  target_agent: string;
  plan_key: string;
  cwd: string;
  resume: string;
  undo: string;
  created_at: string;
}

const toRecord = (r: Row): ContinuationRecord => ({
  targetSession: r.target_session,
  sourceSession: r.source_session,
  targetAgent: r.target_agent,
  planKey: r.plan_key,
  cwd: r.cwd,
  resume: JSON.parse(r.resume) as string[],
  undoJson: r.undo,
  createdAt: r.created_at,
});

export interface ContinuationStore {
  save(record: ContinuationRecord): void;
  byTarget(targetSession: string): ContinuationRecord | null;
  byKey(planKey: string): ContinuationRecord | null;
  /** Continuations of a session and the one it continues, for the list's link. */
  list(): ContinuationRecord[];
  remove(targetSession: string): boolean;
}

export function continuationStore(db: Database.Database): ContinuationStore {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO continuations (target_session, source_session, target_agent, plan_key, cwd, resume, undo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const byTarget = db.prepare<[string], Row>('SELECT * FROM continuations WHERE target_session = ?');
  const byKey = db.prepare<[string], Row>('SELECT * FROM continuations WHERE plan_key = ?');
  const all = db.prepare<[], Row>('SELECT * FROM continuations ORDER BY created_at DESC');
  const remove = db.prepare<[string]>('DELETE FROM continuations WHERE target_session = ?');
  return {
    save: (r) => {
      insert.run(r.targetSession, r.sourceSession, r.targetAgent, r.planKey, r.cwd, JSON.stringify(r.resume), r.undoJson, r.createdAt);
    },
    byTarget: (id) => {
      const row = byTarget.get(id);
      return row ? toRecord(row) : null;
    },
    byKey: (key) => {
      const row = byKey.get(key);
      return row ? toRecord(row) : null;
    },
    list: () => all.all().map(toRecord),
    remove: (id) => remove.run(id).changes > 0,
  };
}
