/**
 * Full-text search over the index, ranked by BM25 weighted by recency.
 *
 * Speed on a million messages comes from never asking FTS5 for more than a small candidate set:
 * 1. FTS5 returns the newest CANDIDATE_CAP matching messages (rowid order, which follows ingest
 *    order), and their text comes from `messages` by primary key. FTS5's own bm25() or
 *    `ORDER BY rank` would first count every match of every phrase (tens of ms for a common word,
 *    measured), so they are not used; BM25 is computed in JS on the candidates (bm25.ts).
 *    Sessions are joined only when a filter needs them, else looked up once per distinct session.
 * 2. Snippets are cut in JS from the text already fetched, for the final hits only.
 */
import type { AgentId } from '../../../shared/model.js';
import type { SearchHit } from '../../../shared/api-types.js';
import type { IndexDb } from './index-db.js';
import { SEQ_SPAN } from './index-schema.js';
import { bm25Score, foldText, type Bm25Phrase } from './bm25.js';
import { FtsStats, decodeVarints } from './fts-stats.js';
import { hasTokens, searchableText } from './fts-text.js';
import { sessionFilterSql } from './session-filter-sql.js';
import { isShortWord, parseSearchQuery, toFtsMatch, type ParsedQuery, type SearchFilters } from './search-query.js';
import { visibilitySql, type SessionVisibility } from './session-visibility.js';
import { knownSecretFindings, resolveFindings, type Finding } from '../redaction/known-secrets.js';

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
/** Candidate pages read at most when the per-session cap leaves fewer hits than asked for. */
const MAX_PAGES = 4;
const DAY_MS = 86_400_000;

/** A matching message, its searchable text and its length in tokens. */
interface Candidate {
  id: number;
  role: SearchHit['role'];
  timestamp: string | null;
  body: string;
  tokens: number;
}

interface CandidateRow {
  id: number;
  role: SearchHit['role'];
  timestamp: string | null;
  kind: string;
  tool_name: string | null;
  text: string;
  sz: Uint8Array | null;
}

interface SessionInfo {
  rowid: number;
  id: string;
  agent: string;
  native_id: string;
  title: string | null;
  cwd: string | null;
  updated_at: string | null;
  other_branches: string | null;
}

function filterSql(f: SearchFilters, params: Record<string, unknown>): string {
  return sessionFilterSql(f, params).map((w) => ` AND ${w}`).join('');
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
 * JS on the stored text (a contentless FTS table has no text for FTS5's snippet() to cut from).
 * The text is raw (the output boundary masks secrets, and a person may reveal them), so the snippet
 * must keep every secret whole and unmarked: its edges never cut a token or a known secret in half
 * (a half-secret is something no redactor recognises), and a term found inside a secret marks the
 * whole secret, never part of it.
 */
export function manualSnippet(text: string, terms: string[], radius = 60): string {
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  const usable = terms.filter((t) => t.length > 0);
  // A secret's span includes its context (`NAME=`), so a highlight never splits name from value.
  const secrets = resolveFindings(knownSecretFindings(text).map((f) => ({ ...f, start: f.contextStart ?? f.start })));
  const any = usable.length ? new RegExp(usable.map(termPattern).join('|'), 'gi') : null;
  const first = any?.exec(text) ?? null;
  const at = first ? first.index : 0;
  let start = first ? Math.max(0, at - radius) : 0;
  let end = first ? Math.min(text.length, at + first[0].length + radius) : Math.min(text.length, radius * 2);
  ({ start, end } = wholeTokens(text, start, end, secrets));
  const window = text.slice(start, end);
  const marked = any ? markOutsideSecrets(window, start, any, secrets) : window;
  return `${start > 0 ? '…' : ''}${flat(marked)}${end < text.length ? '…' : ''}`;
}

// Edges move to whitespace: a secret's surroundings (a URL's `@host`) are part of what makes it one.
const TOKEN_CHAR = /\S/;
const MAX_WIDEN = 200;

/** Moves the edges of [start, end) outwards so they fall between tokens and outside every secret. */
function wholeTokens(text: string, start: number, end: number, secrets: Finding[]): { start: number; end: number } {
  for (const f of secrets) {
    if (f.start < start && f.end > start) start = f.start;
    if (f.start < end && f.end > end) end = f.end;
  }
  for (let n = 0; start > 0 && n < MAX_WIDEN && TOKEN_CHAR.test(text[start - 1]!) && TOKEN_CHAR.test(text[start]!); n++) start--;
  for (let n = 0; end < text.length && n < MAX_WIDEN && TOKEN_CHAR.test(text[end - 1]!) && TOKEN_CHAR.test(text[end]!); n++) end++;
  return { start, end };
}

/** Wraps each term in `[[…]]`; a term inside a known secret wraps that whole secret instead. */
function markOutsideSecrets(window: string, offset: number, any: RegExp, secrets: Finding[]): string {
  let out = '';
  let pos = 0;
  for (const f of secrets) {
    const s = Math.max(0, f.start - offset);
    const e = Math.min(window.length, f.end - offset);
    if (e <= pos || s >= window.length) continue;
    out += window.slice(pos, s).replace(any, (m) => `[[${m}]]`);
    const secret = window.slice(s, e);
    any.lastIndex = 0;
    out += any.test(secret) ? `[[${secret}]]` : secret;
    pos = e;
  }
  return out + window.slice(pos).replace(any, (m) => `[[${m}]]`);
}

export class MessageSearch {
  private readonly sessionRowid;
  private readonly sessionsByRowid;
  private readonly candidateRows;
  private readonly stats: FtsStats;
  private readonly cache = new Map<string, ReturnType<IndexDb['prepare']>>();

  constructor(private readonly db: IndexDb) {
    this.sessionRowid = db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck();
    // Texts in a second statement: joined into the FTS query, `messages` made FTS5 give up its cheap
    // newest-first early exit (≈ 4× slower, measured). docsize holds each message's token count.
    this.candidateRows = db.prepare(`SELECT m.id, m.role, m.timestamp, m.kind, m.tool_name, m.text, d.sz FROM messages m
      LEFT JOIN message_fts_docsize d ON d.id = m.id WHERE m.id IN (SELECT value FROM json_each(?))`);
    this.sessionsByRowid = db.prepare(
      'SELECT rowid, id, agent, native_id, title, cwd, updated_at, other_branches FROM sessions WHERE rowid IN (SELECT value FROM json_each(?))',
    );
    this.stats = new FtsStats(db);
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
    const params: Record<string, unknown> = {};
    const sessionFilters = filterSql(parsed.filters, params) + visibilitySql(opts.visibility, params);
    let within: number | undefined;
    if (opts.sessionId) {
      within = this.sessionRowid.get(opts.sessionId) as number | undefined;
      if (within === undefined) return [];
    }
    const perSession = opts.sessionId ? limit : (opts.perSession ?? 3);
    const match = toFtsMatch(parsed);
    if (!match) return []; // nothing a word index can look for (e.g. only punctuation)
    params.match = match;
    if (within !== undefined) {
      params.lo = within * SEQ_SPAN;
      params.hi = (within + 1) * SEQ_SPAN - 1;
    }
    // Newest candidates first, a page at a time. One long session can hold every candidate of a
    // page; its per-session slots are then full, so the next page starts below that session.
    const kept: number[] = [];
    const perSessionFound = new Map<number, number>();
    // Of one session's matches only the newest few are ranked: its best `perSession` among them
    // are what it can show, and fetching the text of hundreds of matches from one long session
    // was most of a query's time.
    const pool = opts.sessionId ? limit : Math.max(perSession * 4, 12);
    let slots = 0;
    params.cap = CANDIDATE_CAP;
    for (let page = 0; page < MAX_PAGES; page++) {
      const ids = this.ftsIds(sessionFilters, params, within !== undefined, page > 0);
      for (const id of ids) {
        const session = Math.floor(id / SEQ_SPAN);
        const n = (perSessionFound.get(session) ?? 0) + 1;
        perSessionFound.set(session, n);
        if (n <= pool) kept.push(id);
        if (n <= perSession) slots++;
      }
      if (ids.length < CANDIDATE_CAP || slots >= limit) break;
      const oldest = ids.at(-1)!;
      const session = Math.floor(oldest / SEQ_SPAN);
      params.before = (perSessionFound.get(session) ?? 0) >= perSession ? session * SEQ_SPAN : oldest;
    }
    const candidates = this.candidates(kept);
    return this.rank(candidates, this.sessionsOf(candidates), this.bm25For(parsed), parsed, limit, perSession);
  }

  /** Ids of the newest `@cap` messages matching `@match` and the filters. */
  private ftsIds(sessionFilters: string, params: Record<string, unknown>, withinSession: boolean, below: boolean): number[] {
    // FTS5 takes the rowid range itself: searching one session never touches the others' matches.
    let range = withinSession ? ' AND f.rowid BETWEEN @lo AND @hi' : '';
    if (below) range += ' AND f.rowid < @before';
    const join = sessionFilters ? ` JOIN sessions s ON s.rowid = f.rowid / ${SEQ_SPAN}` : '';
    const sql = `SELECT f.rowid FROM message_fts f${join}
      WHERE message_fts MATCH @match${range}${sessionFilters}
      ORDER BY f.rowid DESC LIMIT @cap`;
    return this.stmt(sql).pluck().all(params) as number[];
  }

  /** The messages' searchable text and token counts (rank orders them). */
  private candidates(ids: number[]): Candidate[] {
    if (ids.length === 0) return [];
    const rows = this.candidateRows.all(JSON.stringify(ids)) as CandidateRow[];
    return rows.map((r) => ({
      id: r.id,
      role: r.role,
      timestamp: r.timestamp,
      body: searchableText(r.kind, r.tool_name, r.text) ?? '',
      tokens: r.sz ? (decodeVarints(r.sz)[0] ?? 0) : 0,
    }));
  }

  private sessionsOf(candidates: Candidate[]): Map<number, SessionInfo> {
    const rowids = [...new Set(candidates.map((c) => Math.floor(c.id / SEQ_SPAN)))];
    const rows = this.sessionsByRowid.all(JSON.stringify(rowids)) as SessionInfo[];
    return new Map(rows.map((r) => [r.rowid, r]));
  }

  /**
   * BM25 over the query's indexed phrases, all with the same IDF. FTS5's IDF needs each phrase's
   * document frequency, i.e. one pass over its whole doclist (30–60 ms per common phrase at 1 M
   * messages, measured; sampling a rowid window costs a seek per segment and term, no cheaper).
   * Every candidate contains every positive phrase, so IDF would only re-weight their term
   * frequencies against each other; term-frequency saturation and length normalization remain.
   */
  private bm25For(parsed: ParsedQuery): (folded: string, tokens: number) => number {
    const totals = this.stats.totals();
    const texts = [...new Set(parsed.terms.filter((t) => !t.negated && hasTokens(t.text)).map((t) => foldText(t.text)))];
    const phrases: Bm25Phrase[] = texts.map((folded) => ({ folded, idf: 1 }));
    return (folded, tokens) => bm25Score(folded, tokens, phrases, totals.avgDocLength);
  }

  private rank(
    candidates: Candidate[],
    sessions: Map<number, SessionInfo>,
    relevance: (folded: string, tokens: number) => number,
    parsed: ParsedQuery,
    limit: number,
    perSession: number,
  ): SearchHit[] {
    const now = Date.now();
    const scored: { c: Candidate; s: SessionInfo; score: number }[] = [];
    for (const c of candidates) {
      const s = sessions.get(Math.floor(c.id / SEQ_SPAN));
      if (!s) continue; // session row replaced between the two reads
      scored.push({ c, s, score: relevance(foldText(c.body), c.tokens) * recencyBoost(s.updated_at, now) });
    }
    scored.sort((a, b) => b.score - a.score || b.c.id - a.c.id);
    const perSessionCount = new Map<number, number>();
    const hits: SearchHit[] = [];
    const highlight = parsed.terms.filter((t) => !t.negated).map((t) => t.text);
    for (const { c, s, score } of scored) {
      const n = perSessionCount.get(s.rowid) ?? 0;
      if (n >= perSession) continue;
      perSessionCount.set(s.rowid, n + 1);
      hits.push({
        sessionId: s.id,
        agent: s.agent as AgentId,
        nativeId: s.native_id,
        title: s.title,
        cwd: s.cwd,
        seq: c.id % SEQ_SPAN,
        role: c.role,
        snippet: manualSnippet(c.body, highlight),
        timestamp: c.timestamp,
        score: Math.round(score * 1000) / 1000,
        ...(onOtherBranch(s.other_branches, c.id % SEQ_SPAN) ? { otherBranch: true } : {}),
      });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}

/** Whether `seq` lies in one of a session's other-branch ranges (JSON [[first, last], …]). */
function onOtherBranch(ranges: string | null, seq: number): boolean {
  if (!ranges) return false;
  try {
    return (JSON.parse(ranges) as [number, number][]).some(([a, b]) => seq >= a && seq <= b);
  } catch {
    return false;
  }
}
