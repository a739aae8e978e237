/**
 * The one translation of a session filter into SQL over `sessions s`. `baton list`, `baton search`,
 * the API and MCP all filter through it, so `--branch Main` means the same everywhere.
 */
import type { AgentId } from '../../../shared/model.js';

export interface SessionFilter {
  agent?: AgentId;
  /** Substring of the session's cwd (case-insensitive). */
  project?: string;
  /** The session's git branch, compared case-insensitively (git on macOS/Windows folds case). */
  branch?: string;
  /** ISO timestamps (inclusive lower / exclusive upper bound on the session's activity). */
  after?: string;
  before?: string;
}

/** The filter's conditions (joined with AND by the caller); their values are put into `params`. */
export function sessionFilterSql(f: SessionFilter, params: Record<string, unknown>): string[] {
  const where: string[] = [];
  if (f.agent) {
    where.push('s.agent = @agent');
    params.agent = f.agent;
  }
  if (f.project) {
    where.push('instr(lower(s.cwd), lower(@project)) > 0');
    params.project = f.project;
  }
  if (f.branch) {
    where.push('s.git_branch = @branch COLLATE NOCASE');
    params.branch = f.branch;
  }
  if (f.after) {
    where.push('coalesce(s.updated_at, s.started_at) >= @after');
    params.after = f.after;
  }
  if (f.before) {
    where.push('coalesce(s.started_at, s.updated_at) < @before');
    params.before = f.before;
  }
  return where;
}
