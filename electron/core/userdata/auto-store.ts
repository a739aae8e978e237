/**
 * Unattended continuation in baton.db: the folders switched on and the runs (what Baton did when a
 * session there hit its limit). A run is claimed in one IMMEDIATE transaction that first looks for
 * one of the same window, so two checks racing (or two Baton processes) cannot both open an agent.
 */
import type Database from 'better-sqlite3';
import type { AutoRule, AutoRun, AutoTrigger } from '../../../shared/auto-continue.js';
import type { AgentId } from '../../../shared/model.js';

interface RuleRow {
  folder: string;
  worktree_root: string | null;
  targets: string;
  triggers: string;
  created_at: string;
  updated_at: string;
}

interface RunRow {
  id: string;
  folder: string;
  source_session: string;
  source_agent: AgentId;
  trigger: AutoTrigger;
  window_end: string | null;
  resets_at: string | null;
  target_agent: AgentId | null;
  checkpoint_id: string | null;
  outcome: AutoRun['outcome'];
  message: string;
  command: string | null;
  created_at: string;
}

/** What a new run is about; `claimRun` refuses it when its window already has one. */
export interface RunClaim {
  folder: string;
  sourceSession: string;
  sourceAgent: AgentId;
  trigger: AutoTrigger;
  /** The hit's time: a limit run whose window ends after it already covers it. */
  at: string;
  windowEnd: string | null;
  resetsAt: string | null;
  createdAt: string;
}

export interface AutoStore {
  /** Adds or replaces the rule for `rule.folder` (its first switch-on time is kept). */
  setRule(rule: Omit<AutoRule, 'createdAt' | 'updatedAt'>, at: string): AutoRule;
  removeRule(folder: string): boolean;
  listRules(): AutoRule[];
  /**
   * A new run (outcome 'no-target' until `finishRun`), or null when this window was handled: a limit
   * run of the same folder and source agent whose window ends after `at`, or a context run of the session.
   */
  claimRun(claim: RunClaim): AutoRun | null;
  finishRun(id: string, result: Pick<AutoRun, 'target' | 'checkpointId' | 'outcome' | 'message' | 'command'>): AutoRun;
  listRuns(limit?: number): AutoRun[];
}

function toRule(row: RuleRow): AutoRule {
  return {
    folder: row.folder,
    worktreeRoot: row.worktree_root,
    targets: JSON.parse(row.targets) as AgentId[],
    when: JSON.parse(row.triggers) as AutoTrigger[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRun(row: RunRow): AutoRun {
  return {
    id: row.id,
    folder: row.folder,
    sourceSession: row.source_session,
    sourceAgent: row.source_agent,
    trigger: row.trigger,
    windowEnd: row.window_end,
    resetsAt: row.resets_at,
    target: row.target_agent,
    checkpointId: row.checkpoint_id,
    outcome: row.outcome,
    message: row.message,
    command: row.command,
    createdAt: row.created_at,
  };
}

export function createAutoStore(db: Database.Database): AutoStore {
  const upsert = db.prepare(`
    INSERT INTO auto_rules (folder, worktree_root, targets, triggers, created_at, updated_at)
    VALUES (@folder, @worktree_root, @targets, @triggers, @at, @at)
    ON CONFLICT(folder) DO UPDATE SET worktree_root = excluded.worktree_root, targets = excluded.targets,
      triggers = excluded.triggers, updated_at = excluded.updated_at`);
  const ruleOf = db.prepare<[string], RuleRow>('SELECT * FROM auto_rules WHERE folder = ?');
  const rules = db.prepare<[], RuleRow>('SELECT * FROM auto_rules ORDER BY folder');
  const remove = db.prepare('DELETE FROM auto_rules WHERE folder = ?');
  const limitRunIn = db.prepare<[string, string, string], { id: string }>(
    "SELECT id FROM auto_runs WHERE folder = ? AND source_agent = ? AND trigger = 'limit' AND window_end > ? LIMIT 1",
  );
  const contextRunOf = db.prepare<[string], { id: string }>("SELECT id FROM auto_runs WHERE source_session = ? AND trigger = 'context' LIMIT 1");
  const insertRun = db.prepare(`
    INSERT INTO auto_runs (id, folder, source_session, source_agent, trigger, window_end, resets_at, outcome, message, created_at)
    VALUES (@id, @folder, @source_session, @source_agent, @trigger, @window_end, @resets_at, 'no-target', '', @created_at)`);
  const runOf = db.prepare<[string], RunRow>('SELECT * FROM auto_runs WHERE id = ?');
  const finish = db.prepare(
    'UPDATE auto_runs SET target_agent = @target, checkpoint_id = @checkpoint_id, outcome = @outcome, message = @message, command = @command WHERE id = @id',
  );
  const runs = db.prepare<[number], RunRow>('SELECT * FROM auto_runs ORDER BY created_at DESC, rowid DESC LIMIT ?');

  const claim = db.transaction((c: RunClaim): AutoRun | null => {
    const taken = c.trigger === 'limit' ? limitRunIn.get(c.folder, c.sourceAgent, c.at) : contextRunOf.get(c.sourceSession);
    if (taken) return null;
    const id = globalThis.crypto.randomUUID();
    insertRun.run({
      id,
      folder: c.folder,
      source_session: c.sourceSession,
      source_agent: c.sourceAgent,
      trigger: c.trigger,
      window_end: c.windowEnd,
      resets_at: c.resetsAt,
      created_at: c.createdAt,
    });
    return toRun(runOf.get(id)!);
  });

  return {
    setRule: (rule, at) => {
      upsert.run({ folder: rule.folder, worktree_root: rule.worktreeRoot, targets: JSON.stringify(rule.targets), triggers: JSON.stringify(rule.when), at });
      return toRule(ruleOf.get(rule.folder)!);
    },
    removeRule: (folder) => remove.run(folder).changes > 0,
    listRules: () => rules.all().map(toRule),
    claimRun: (c) => claim.immediate(c),
    finishRun: (id, r) => {
      finish.run({ id, target: r.target, checkpoint_id: r.checkpointId, outcome: r.outcome, message: r.message, command: r.command });
      const row = runOf.get(id);
      if (!row) throw new Error(`auto run ${id} is not in baton.db`);
      return toRun(row);
    },
    listRuns: (limit = 20) => runs.all(limit).map(toRun),
  };
}
