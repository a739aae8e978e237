/**
 * Turning what a person or an agent types ("codex:0199…", "0199a", "fix the login bug") into one
 * session id. Levels are tried from most to least exact; the first level with any match decides:
 * one match resolves, several are reported as ambiguous with candidates to choose from.
 */
import type { AgentId } from '../../../shared/model.js';
import type { IndexDb } from './index-db.js';
import { likeFragment } from './search-query.js';

export interface SessionCandidate {
  id: string;
  agent: AgentId;
  nativeId: string;
  title: string | null;
  firstPrompt: string | null;
  cwd: string | null;
  updatedAt: string | null;
}

export type SessionRefResult =
  | { status: 'found'; sessionId: string }
  | { status: 'ambiguous'; candidates: SessionCandidate[] }
  | { status: 'not_found' };

const MAX_CANDIDATES = 10;
/** Shortest id prefix a reference may be (shorter ones are read as title words). */
export const MIN_PREFIX = 4;

interface CandidateRow {
  id: string;
  agent: string;
  native_id: string;
  title: string | null;
  first_prompt: string | null;
  cwd: string | null;
  updated_at: string | null;
}

const COLUMNS = 'id, agent, native_id, title, first_prompt, cwd, updated_at';
/** The name a session goes by: its title, or its first prompt when it has none. */
const LABEL = 'coalesce(title, first_prompt)';

export class SessionRefResolver {
  private readonly levels: { sql: string; param: (ref: string) => Record<string, unknown> | null }[];
  private readonly stmts;

  constructor(private readonly db: IndexDb) {
    const order = `ORDER BY updated_at DESC LIMIT ${MAX_CANDIDATES + 1}`;
    const isIdLike = (ref: string) => !/\s/.test(ref) && ref.length >= MIN_PREFIX;
    this.levels = [
      { sql: `SELECT ${COLUMNS} FROM sessions WHERE id = @ref ${order}`, param: (ref) => ({ ref }) },
      { sql: `SELECT ${COLUMNS} FROM sessions WHERE native_id = @ref ${order}`, param: (ref) => ({ ref }) },
      {
        sql: `SELECT ${COLUMNS} FROM sessions WHERE (id LIKE @p ESCAPE '\\' OR native_id LIKE @p ESCAPE '\\') ${order}`,
        param: (ref) => (isIdLike(ref) ? { p: `${likeFragment(ref)}%` } : null),
      },
      { sql: `SELECT ${COLUMNS} FROM sessions WHERE ${LABEL} = @ref COLLATE NOCASE ${order}`, param: (ref) => ({ ref }) },
      {
        sql: `SELECT ${COLUMNS} FROM sessions WHERE instr(lower(${LABEL}), lower(@ref)) > 0 ${order}`,
        param: (ref) => ({ ref }),
      },
    ];
    this.stmts = this.levels.map((l) => db.prepare(l.sql));
  }

  resolve(input: string): SessionRefResult {
    const ref = input.trim();
    if (!ref) return { status: 'not_found' };
    for (let i = 0; i < this.levels.length; i++) {
      const params = this.levels[i]!.param(ref);
      if (!params) continue;
      const rows = this.stmts[i]!.all(params) as CandidateRow[];
      const result = decide(rows);
      if (result) return result;
    }
    const words = ref.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length > 1) {
      const where = words.map((_, i) => `instr(lower(${LABEL}), @w${i}) > 0`).join(' AND ');
      const params = Object.fromEntries(words.map((w, i) => [`w${i}`, w]));
      const rows = this.db
        .prepare(`SELECT ${COLUMNS} FROM sessions WHERE ${where} ORDER BY updated_at DESC LIMIT ${MAX_CANDIDATES + 1}`)
        .all(params) as CandidateRow[];
      const result = decide(rows);
      if (result) return result;
    }
    return { status: 'not_found' };
  }
}

function decide(rows: CandidateRow[]): SessionRefResult | null {
  if (rows.length === 0) return null;
  if (rows.length === 1) return { status: 'found', sessionId: rows[0]!.id };
  return {
    status: 'ambiguous',
    candidates: rows.slice(0, MAX_CANDIDATES).map((r) => ({
      id: r.id,
      agent: r.agent as AgentId,
      nativeId: r.native_id,
      title: r.title,
      firstPrompt: r.first_prompt,
      cwd: r.cwd,
      updatedAt: r.updated_at,
    })),
  };
}
