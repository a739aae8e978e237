/**
 * Full-text search over the index. Ranking is bm25 weighted by recency; to keep every query fast
 * on a million messages, ranking looks at the newest CANDIDATE_CAP matching messages (rowid order,
 * which follows ingest order) rather than sorting every match of a very common word.
 */
import type { AgentId } from '../../../shared/model.js';
import type { SearchHit } from '../../../shared/api-types.js';
import type { IndexDb } from './index-db.js';
import { SEQ_SPAN } from './index-schema.js';
import { globFragment, isShortWord, likeFragment, parseSearchQuery, toFtsMatch, type ParsedQuery, type SearchFilters } from './search-query.js';
import { visibilitySql, type SessionVisibility } from './session-visibility.js';

export interface SearchOptions {
  agent?: AgentId;
  limit?: number;
  /** Most hits kept from one session, so one long session does not crowd out the rest. */
  perSession?: number;
  /** Only hits from this session (search within one session). */
  sessionId?: string;
  /** Which sessions the user sees now (configured roots, excluded projects). */
  visibility?: SessionVisibility;
}

const CANDIDATE_CAP = 400;
const DAY_MS = 86_400_000;

interface Candidate {
  id: number;
  rank: number;
  session_id: string;
  agent: string;
  native_id: string;
  title: string | null;
  cwd: string | null;
  updated_at: string | null;
}

function filterSql(f: SearchFilters, params: Record<string, unknown>): string {
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
  return where.map((w) => ` AND ${w}`).join('');
}

function shortTermSql(q: ParsedQuery, bodyExpr: string, params: Record<string, unknown>): string {
  let sql = '';
  q.terms.forEach((t, i) => {
    if (!t.short) return;
    if (isShortWord(t.text)) {
      params[`short${i}`] = `*[^a-z0-9]${globFragment(t.text.toLowerCase())}[^a-z0-9]*`;
      sql += ` AND ${t.negated ? 'NOT ' : ''}(lower(' ' || ${bodyExpr} || ' ') GLOB @short${i})`;
    } else {
      params[`short${i}`] = `%${likeFragment(t.text)}%`;
      sql += ` AND ${bodyExpr} ${t.negated ? 'NOT LIKE' : 'LIKE'} @short${i} ESCAPE '\\'`;
    }
  });
  return sql;
}

/** Recency multiplier: 2× for today, ~1.5× for two weeks ago, tending to 1× for old sessions. */
function recencyBoost(updatedAt: string | null, now: number): number {
  const t = updatedAt ? Date.parse(updatedAt) : NaN;
  if (Number.isNaN(t)) return 1;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return 1 + 1 / (1 + ageDays / 14);
}

function termPattern(t: string): string {
  const escaped = t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return isShortWord(t) ? `(?<![a-z0-9])${escaped}(?![a-z0-9])` : escaped;
}

/**
 * A snippet around the first occurrence of any term, every term in it wrapped in `[[…]]`. Done in
 * JS on the stored text: cheaper than FTS5's snippet(), which re-tokenizes each hit into trigrams.
 */
export function manualSnippet(text: string, terms: string[], radius = 60): string {
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  const usable = terms.filter((t) => t.length > 0);
  if (usable.length === 0) return flat(text.slice(0, radius * 2));
  const any = new RegExp(usable.map(termPattern).join('|'), 'gi');
  const first = any.exec(text);
  if (!first) return flat(text.slice(0, radius * 2));
  const start = Math.max(0, first.index - radius);
  const end = Math.min(text.length, first.index + first[0].length + radius);
  const window = text.slice(start, end);
  const marked = window.replace(any, (m) => `[[${m}]]`);
  return `${start > 0 ? '…' : ''}${flat(marked)}${end < text.length ? '…' : ''}`;
}

export class MessageSearch {
  private readonly messageStmt;
  private readonly bodyStmt;
  private readonly cache = new Map<string, ReturnType<IndexDb['prepare']>>();

  constructor(private readonly db: IndexDb) {
    this.messageStmt = db.prepare('SELECT role, timestamp FROM messages WHERE id = ?');
    this.bodyStmt = db.prepare('SELECT body FROM message_fts_content WHERE id = ?').pluck();
  }

  private stmt(sql: string) {
    let s = this.cache.get(sql);
    if (!s) {
      if (this.cache.size > 64) this.cache.clear();
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    const parsed = parseSearchQuery(query);
    if (opts.agent) parsed.filters.agent = opts.agent;
    const limit = Math.max(1, Math.min(opts.limit ?? 50, 500));
    if (!parsed.terms.some((t) => !t.negated)) return [];
    const match = toFtsMatch(parsed);
    const params: Record<string, unknown> = { cap: CANDIDATE_CAP };
    let filters = filterSql(parsed.filters, params) + visibilitySql(opts.visibility, params);
    if (opts.sessionId) {
      filters += ' AND s.id = @sessionId';
      params.sessionId = opts.sessionId;
    }
    const perSession = opts.sessionId ? limit : (opts.perSession ?? 3);
    let candidates: Candidate[];
    if (match) {
      params.match = match;
      const sql = `SELECT f.rowid AS id, bm25(message_fts) AS rank, s.id AS session_id, s.agent, s.native_id, s.title, s.cwd, s.updated_at
        FROM message_fts f JOIN sessions s ON s.rowid = f.rowid / ${SEQ_SPAN}
        WHERE message_fts MATCH @match${filters}${shortTermSql(parsed, 'f.body', params)}
        ORDER BY f.rowid DESC LIMIT @cap`;
      candidates = this.stmt(sql).all(params) as Candidate[];
    } else {
      // Only terms shorter than a trigram: a LIKE scan, newest first, stopping at the cap.
      const sql = `SELECT c.id, 0 AS rank, s.id AS session_id, s.agent, s.native_id, s.title, s.cwd, s.updated_at
        FROM message_fts_content c JOIN messages m ON m.id = c.id JOIN sessions s ON s.rowid = c.id / ${SEQ_SPAN}
        WHERE m.kind != 'thinking'${filters}${shortTermSql(parsed, 'c.body', params)}
        ORDER BY c.id DESC LIMIT @cap`;
      candidates = this.stmt(sql).all(params) as Candidate[];
    }
    const now = Date.now();
    const scored = candidates
      .map((c) => ({ c, score: (match ? -c.rank : 1) * recencyBoost(c.updated_at, now) }))
      .sort((a, b) => b.score - a.score || b.c.id - a.c.id);
    const perSessionCount = new Map<string, number>();
    const hits: SearchHit[] = [];
    const shortTexts = parsed.terms.filter((t) => !t.negated).map((t) => t.text);
    for (const { c, score } of scored) {
      const n = perSessionCount.get(c.session_id) ?? 0;
      if (n >= perSession) continue;
      perSessionCount.set(c.session_id, n + 1);
      const msg = this.messageStmt.get(c.id) as { role: SearchHit['role']; timestamp: string | null };
      const snippet = manualSnippet((this.bodyStmt.get(c.id) as string | null) ?? '', shortTexts);
      hits.push({
        sessionId: c.session_id,
        agent: c.agent as AgentId,
        nativeId: c.native_id,
        title: c.title,
        cwd: c.cwd,
        seq: c.id % SEQ_SPAN,
        role: msg.role,
        snippet,
        timestamp: msg.timestamp,
        score: Math.round(score * 1000) / 1000,
      });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}
