/**
 * Read side of the index: lists, one session, paged messages (the TranscriptReader briefs use),
 * search and session-reference resolution. It holds its own read-only connection, so with WAL it
 * never waits for the ingest writer, which lives on another thread.
 */
import { sessionFilterSql } from './session-filter-sql.js';
import fs from 'node:fs';
import type { AgentId, Message, SeqRange, Session, UsageLimit } from '../../../shared/model.js';
import type { SearchHit } from '../../../shared/api-types.js';
import type { MessageQuery, TranscriptReader } from './transcript-reader.js';
import { indexFilePath, openIndexForReading, type IndexDb } from './index-db.js';
import { SEQ_SPAN } from './index-schema.js';
import { MessageSearch, type SearchOptions } from './search.js';
import { SessionRefResolver, type SessionRefResult } from './session-ref.js';
import { visibilitySql, type SessionVisibility } from './session-visibility.js';
import { MESSAGE_COLUMNS, SESSION_COLUMNS, rowToMessage, rowToSession, type MessageRow, type SessionRow } from './session-rows.js';

export interface SessionListQuery {
  agent?: AgentId;
  /** Substring of the session's cwd (case-insensitive). */
  project?: string;
  branch?: string;
  limit?: number;
  offset?: number;
  /** Which sessions the user sees now (configured roots, excluded projects). */
  visibility?: SessionVisibility;
}

export interface SessionList {
  sessions: Session[];
  total: number;
}

export interface IndexStats {
  sessions: number;
  goneSessions: number;
  messages: number;
  units: number;
  /** index.db + -wal on disk. */
  bytesOnDisk: number;
  /** Newest session activity the index holds. */
  newestActivity: string | null;
  /** Sessions and (agent-reported) messages per agent. */
  byAgent: Record<string, { sessions: number; messages: number }>;
}

export class SessionIndex implements TranscriptReader {
  readonly db: IndexDb;
  private readonly searcher: MessageSearch;
  private readonly resolver: SessionRefResolver;
  private readonly sessionById;
  private readonly sessionRowidById;
  private readonly branchesById;
  private readonly sessionTotal;
  private readonly listCache = new Map<string, { rows: ReturnType<IndexDb['prepare']>; count: ReturnType<IndexDb['prepare']> }>();
  private readonly messageStmtCache = new Map<string, ReturnType<IndexDb['prepare']>>();

  /** Opens a read connection to `<dataDir>/index.db` (which must already exist: see openIndexForWriting). */
  constructor(private readonly dataDir: string, db?: IndexDb) {
    this.db = db ?? openIndexForReading(dataDir);
    this.searcher = new MessageSearch(this.db);
    this.resolver = new SessionRefResolver(this.db);
    this.sessionById = this.db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
    this.sessionRowidById = this.db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck();
    this.branchesById = this.db.prepare('SELECT rowid, other_branches FROM sessions WHERE id = ?');
    this.sessionTotal = this.db.prepare('SELECT count(*) FROM sessions').pluck();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  getSession(sessionId: string): Session | null {
    const row = this.sessionById.get(sessionId) as SessionRow | undefined;
    return row ? rowToSession(row) : null;
  }

  listSessions(q: SessionListQuery = {}): SessionList {
    const params: Record<string, unknown> = {
      limit: Math.max(1, Math.min(q.limit ?? 100, 10_000)),
      offset: Math.max(0, q.offset ?? 0),
    };
    const where = sessionFilterSql({ agent: q.agent, project: q.project, branch: q.branch }, params);
    const exclusions = visibilitySql(q.visibility, params);
    const clause = where.length || exclusions ? `WHERE 1${where.map((w) => ` AND ${w}`).join('')}${exclusions}` : '';
    let stmts = this.listCache.get(clause);
    if (!stmts) {
      stmts = {
        rows: this.db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s ${clause}
          ORDER BY s.updated_at DESC, s.rowid DESC LIMIT @limit OFFSET @offset`),
        count: this.db.prepare(`SELECT count(*) FROM sessions s ${clause}`).pluck(),
      };
      this.listCache.set(clause, stmts);
    }
    const { limit: _l, offset: _o, ...countParams } = params;
    const rows = stmts.rows.all(params) as SessionRow[];
    const total = stmts.count.get(countParams) as number;
    return { sessions: rows.map(rowToSession), total };
  }

  private messageStmt(kind: 'rows' | 'count', q: MessageQuery, skipRanges: number) {
    const kinds = q.kinds?.length ? q.kinds.length : 0;
    const roles = q.roles?.length ? q.roles.length : 0;
    const key = `${kind}|${kinds}|${roles}|${q.order ?? 'asc'}|${skipRanges}`;
    let stmt = this.messageStmtCache.get(key);
    if (!stmt) {
      const where = ['m.id >= @lo', 'm.id < @hi'];
      if (kinds) where.push(`m.kind IN (${Array.from({ length: kinds }, (_, i) => `@k${i}`).join(', ')})`);
      if (roles) where.push(`m.role IN (${Array.from({ length: roles }, (_, i) => `@r${i}`).join(', ')})`);
      for (let i = 0; i < skipRanges; i++) where.push(`m.id NOT BETWEEN @xa${i} AND @xb${i}`);
      const sql =
        kind === 'count'
          ? `SELECT count(*) FROM messages m WHERE ${where.join(' AND ')}`
          : `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE ${where.join(' AND ')}
             ORDER BY m.id ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT @limit OFFSET @offset`;
      stmt = this.db.prepare(sql);
      if (kind === 'count') stmt.pluck();
      this.messageStmtCache.set(key, stmt);
    }
    return stmt;
  }

  private messageParams(rowid: number, q: MessageQuery, skip: SeqRange[]): Record<string, unknown> {
    const params: Record<string, unknown> = { lo: rowid * SEQ_SPAN, hi: (rowid + 1) * SEQ_SPAN };
    q.kinds?.forEach((k, i) => (params[`k${i}`] = k));
    q.roles?.forEach((r, i) => (params[`r${i}`] = r));
    skip.forEach(([a, b], i) => {
      params[`xa${i}`] = rowid * SEQ_SPAN + a;
      params[`xb${i}`] = rowid * SEQ_SPAN + b;
    });
    return params;
  }

  /** The session's rowid and, for a currentBranch query, the seq ranges to leave out. */
  private target(sessionId: string, q: MessageQuery): { rowid: number; skip: SeqRange[] } | null {
    if (!q.currentBranch) {
      const rowid = this.sessionRowidById.get(sessionId) as number | undefined;
      return rowid === undefined ? null : { rowid, skip: [] };
    }
    const row = this.branchesById.get(sessionId) as { rowid: number; other_branches: string | null } | undefined;
    if (!row) return null;
    let skip: SeqRange[] = [];
    try {
      if (row.other_branches) skip = JSON.parse(row.other_branches) as SeqRange[];
    } catch {
      // A damaged value in a disposable cache: show everything rather than nothing.
    }
    return { rowid: row.rowid, skip };
  }

  countMessages(sessionId: string, query: MessageQuery = {}): number {
    const t = this.target(sessionId, query);
    if (!t) return 0;
    return this.messageStmt('count', query, t.skip.length).get(this.messageParams(t.rowid, query, t.skip)) as number;
  }

  limitStop(sessionId: string): (UsageLimit & { at: string | null }) | null {
    const rows = this.db
      .prepare(
        `SELECT e.at AS at, e.limits AS limits, e.input + e.output + e.cache_read + e.cache_write AS tokens FROM usage_events e
         JOIN sessions s ON s.rowid = e.session_rowid WHERE s.id = ? ORDER BY e.at DESC LIMIT 50`,
      )
      .all(sessionId) as { at: string | null; limits: string | null; tokens: number }[];
    for (const r of rows) {
      if (r.tokens > 0) return null; // a request served after any hit: the session went on
      const hit = r.limits ? (JSON.parse(r.limits) as UsageLimit[]).find((l) => l.name === 'reached') : undefined;
      if (hit) return { ...hit, at: r.at };
    }
    return null;
  }

  getMessages(sessionId: string, query: MessageQuery = {}): Message[] {
    const t = this.target(sessionId, query);
    if (!t) return [];
    const params = this.messageParams(t.rowid, query, t.skip);
    params.limit = query.limit === undefined ? -1 : Math.max(0, query.limit);
    params.offset = Math.max(0, query.offset ?? 0);
    const rows = this.messageStmt('rows', query, t.skip.length).all(params) as MessageRow[];
    return rows.map((r) => rowToMessage(sessionId, r));
  }

  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    return this.searcher.search(query, opts);
  }

  /**
   * One agent's store on one machine (`host` null: this machine; remote ids are `host/agent:…`): how
   * many sessions it holds, and when its most recently active one last changed (null: none has a time).
   */
  storeSummary(agent: AgentId, host: string | null): { sessions: number; latestAt: string | null } {
    const columns = 'count(*) AS sessions, max(updated_at) AS latestAt FROM sessions WHERE agent = ?';
    return (host === null
      ? this.db.prepare(`SELECT ${columns} AND NOT (instr(id, '/') BETWEEN 1 AND instr(id, ':'))`).get(agent)
      : this.db.prepare(`SELECT ${columns} AND substr(id, 1, length(?) + 1) = ? || '/'`).get(agent, host, host)) as { sessions: number; latestAt: string | null };
  }

  /** How many sessions the index holds (health's one number: not stats(), which also groups and stats files). */
  sessionCount(): number {
    return this.sessionTotal.get() as number;
  }

  resolveSessionRef(ref: string): SessionRefResult {
    return this.resolver.resolve(ref);
  }

  /**
   * `messageRows: false` reports the sessions' own message counts (`byAgent`'s sum) instead of
   * counting the message rows, a scan of the whole messages index (~40 ms at 300k messages) that a
   * warm `baton index` would otherwise spend most of its time on.
   */
  stats(opts: { messageRows?: boolean } = {}): IndexStats {
    const messages = opts.messageRows === false ? '(SELECT coalesce(sum(message_count), 0) FROM sessions)' : '(SELECT count(*) FROM messages)';
    const row = this.db
      .prepare(
        `SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM sessions WHERE source_gone = 1) AS gone,
          ${messages} AS messages, (SELECT count(*) FROM units) AS units,
          (SELECT max(updated_at) FROM sessions) AS newest`,
      )
      .get() as { sessions: number; gone: number; messages: number; units: number; newest: string | null };
    const file = indexFilePath(this.dataDir);
    const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
    const byAgent = Object.fromEntries(
      (this.db.prepare('SELECT agent, count(*) AS n, sum(message_count) AS m FROM sessions GROUP BY agent').all() as { agent: string; n: number; m: number }[]).map(
        (r) => [r.agent, { sessions: r.n, messages: r.m ?? 0 }],
      ),
    );
    return {
      byAgent,
      sessions: row.sessions,
      goneSessions: row.gone,
      messages: row.messages,
      units: row.units,
      bytesOnDisk: size(file) + size(`${file}-wal`),
      newestActivity: row.newest,
    };
  }
}
