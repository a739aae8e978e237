/**
 * Usage reports over the index: the per-request records the adapters stored at ingest
 * (`usage_events`), and for sessions whose agent records usage per session only (OpenCode, Hermes,
 * and any reader without per-request records) one record from the session's totals. Nothing is
 * re-parsed per query. Grouped by session, day, model or ccusage-style 5-hour block.
 */
import { limitHitKey, type LimitHit } from '../../../shared/limits.js';
import type { AgentId, TokenUsage, UsageEvent, UsageLimit } from '../../../shared/model.js';
import { type AgentUsageSummary, type BlockUsage, type DayUsage, type ModelUsage, type OwnUsage, type SessionUsage, type UsageSummary, type UsageTotals } from '../../../shared/usage.js';
import type { IndexDb } from '../index/index-db.js';
import type { Pricing } from './pricing.js';

export interface UsageFilter {
  agent?: AgentId;
  /** ISO date or date-time: requests at or after it. */
  since?: string;
  /** One session's records only. */
  sessionId?: string;
  /** These sessions' records only. */
  sessionIds?: readonly string[];
}

/** One request (or one session's totals, for agents without per-request records), by session row. */
/**
 * `totals`: a session's running totals standing in for its requests (an agent that records no
 * per-request usage); its context is then only known from `lastRequest`, never from the totals.
 */
type UsageRecord = Omit<UsageEvent, 'sessionId' | 'key'> & { sessionRowid: number; totals?: { lastRequest: TokenUsage['lastRequest'] | null } };

interface SessionInfo {
  rowid: number;
  id: string;
  agent: AgentId;
  title: string | null;
  cwd: string | null;
  model: string | null;
  updatedAt: string | null;
  parentId: string | null;
  /** 'subagent': its requests count in the parent's total too (see Session.parentKind). */
  parentKind: string | null;
  usage: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number; lastRequest?: TokenUsage['lastRequest'] };
  hasEvents: boolean;
}

const BLOCK_MS = 5 * 60 * 60 * 1000;
const LIVE_MS = 60 * 60 * 1000;
const HISTORY_POINTS = 200;
/** How far back the summary reads records: a weekly usage window's reports included. */
const SUMMARY_DAYS = 8;

function emptyTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, reasoningTokens: 0, totalTokens: 0, costUSD: null, models: [], unpricedModels: [], requests: 0 };
}

/** Local calendar day of an ISO time (ccusage groups days in the local time zone too). */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The WHERE clause of a filter over `sessions s` (and `usage_events e` when `since` is set). */
function whereOf(filter: UsageFilter): { where: string; params: Record<string, unknown> } {
  const terms: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.agent) {
    terms.push('s.agent = @agent');
    params.agent = filter.agent;
  }
  if (filter.sessionId) {
    terms.push('s.id = @id');
    params.id = filter.sessionId;
  }
  if (filter.sessionIds) {
    const names = filter.sessionIds.map((id, i) => {
      params[`sid${i}`] = id;
      return `@sid${i}`;
    });
    terms.push(names.length ? `s.id IN (${names.join(', ')})` : '0');
  }
  if (filter.since) {
    terms.push('e.at >= @since');
    params.since = filter.since;
  }
  return { where: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}

const SESSION_COLUMNS = `SELECT s.rowid AS rowid, s.id AS id, s.agent AS agent, s.title AS title, s.cwd AS cwd, s.model AS model, s.updated_at AS updatedAt,
  s.parent_id AS parentId, s.parent_kind AS parentKind, s.usage AS usage, EXISTS (SELECT 1 FROM usage_events e WHERE e.session_rowid = s.rowid AND e.input + e.output + e.cache_read + e.cache_write > 0) AS hasEvents`;

type SessionRow = Omit<SessionInfo, 'usage' | 'hasEvents'> & { usage: string; hasEvents: number };

function toInfos(rows: SessionRow[]): Map<number, SessionInfo> {
  const out = new Map<number, SessionInfo>();
  for (const r of rows) {
    let usage: SessionInfo['usage'] = {};
    try {
      usage = JSON.parse(r.usage) as SessionInfo['usage'];
    } catch {
      // a damaged row counts as no usage
    }
    out.set(r.rowid, { ...r, usage, hasEvents: r.hasEvents === 1 });
  }
  return out;
}

/** A `reached` entry of a record as a limit hit of that session. */
function hitOf(r: UsageRecord, l: UsageLimit, session: SessionInfo | undefined): LimitHit | null {
  if (l.name !== 'reached' || !session) return null;
  return {
    key: limitHitKey(session.id, r.at, l.resetsAt),
    agent: session.agent,
    session: session.id,
    at: r.at,
    resetsAt: l.resetsAt,
    kind: l.kind ?? 'usage_limit',
    window: l.window ?? null,
    note: l.note,
  };
}

/**
 * Limit hits per session, one per stop: a CLI that retries a refused request (pi, Qwen Code) records
 * each refusal, so hits with no request served between them are one hit, named by the first (its
 * key and time) with the latest reset and words. Feed a session's records oldest first.
 */
class HitRuns {
  private readonly open = new Map<number, LimitHit>();

  /** The session's current hit after this record (null when the record served a request after it). */
  feed(r: UsageRecord, session: SessionInfo | undefined): LimitHit | null {
    const served = r.input + r.output + r.cacheRead + r.cacheWrite > 0;
    let hit: LimitHit | null = null;
    for (const l of r.limits ?? []) hit = hitOf(r, l, session) ?? hit;
    const first = this.open.get(r.sessionRowid);
    if (!hit) {
      if (served) this.open.delete(r.sessionRowid);
      return first ?? null;
    }
    const merged = first ? { ...hit, key: first.key, at: first.at } : hit;
    this.open.set(r.sessionRowid, merged);
    return merged;
  }
}

function ownOf(t: UsageTotals): OwnUsage {
  const { inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, reasoningTokens, totalTokens, costUSD, requests } = t;
  return { inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, reasoningTokens, totalTokens, costUSD, requests };
}

export class UsageReport {
  constructor(
    private readonly db: IndexDb,
    private readonly pricing: Pricing,
    private readonly now: () => number = Date.now,
  ) {}

  private sessions(filter: UsageFilter): Map<number, SessionInfo> {
    const { where, params } = whereOf({ ...filter, since: undefined });
    const rows = this.db
      .prepare(
        `${SESSION_COLUMNS} FROM sessions s ${where}`,
      )
      .all(params) as SessionRow[];
    return this.withSubagents(toInfos(rows), filter);
  }

  /**
   * For a filter naming sessions: their subagent sessions too (any depth), whose requests count in
   * their totals. Other filters already hold every session they cover.
   */
  private withSubagents(out: Map<number, SessionInfo>, filter: UsageFilter): Map<number, SessionInfo> {
    if (!filter.sessionId && !filter.sessionIds) return out;
    const children = this.db.prepare(`${SESSION_COLUMNS} FROM sessions s WHERE s.parent_id = ?`);
    let parents = [...out.values()];
    while (parents.length) {
      const next: SessionInfo[] = [];
      for (const p of parents) {
        for (const [rowid, info] of toInfos(children.all(p.id) as SessionRow[])) {
          if (out.has(rowid) || info.parentKind !== 'subagent') continue;
          out.set(rowid, info);
          next.push(info);
        }
      }
      parents = next;
    }
    return out;
  }

  /** Every record of the filtered sessions, oldest first. */
  private records(sessions: Map<number, SessionInfo>, filter: UsageFilter): UsageRecord[] {
    // Named sessions: theirs and their subagents' records (the sessions map holds both).
    const named = filter.sessionId !== undefined || filter.sessionIds !== undefined;
    const { where, params } = whereOf(named ? { agent: filter.agent, since: filter.since, sessionIds: [...sessions.values()].map((s) => s.id) } : filter);
    const rows = this.db
      .prepare(
        `SELECT e.session_rowid AS sessionRowid, e.at AS at, e.model AS model, e.input AS input, e.output AS output,
           e.cache_read AS cacheRead, e.cache_write AS cacheWrite, e.reasoning AS reasoning, e.context_window AS contextWindow, e.limits AS limits
         FROM usage_events e JOIN sessions s ON s.rowid = e.session_rowid
         ${where}`,
      )
      .all(params) as (Omit<UsageRecord, 'limits'> & { limits: string | null })[];
    const out: UsageRecord[] = rows.map((r) => ({ ...r, limits: r.limits ? (JSON.parse(r.limits) as UsageLimit[]) : null }));
    for (const s of sessions.values()) {
      if (s.hasEvents) continue;
      if (filter.since && (s.updatedAt === null || s.updatedAt < filter.since)) continue;
      const u = s.usage;
      if (!u.input && !u.output && !u.cacheRead && !u.cacheWrite) continue;
      out.push({
        sessionRowid: s.rowid, at: s.updatedAt, model: s.model, input: u.input ?? 0, output: u.output ?? 0, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0, reasoning: u.reasoning ?? 0,
        contextWindow: null, limits: null, totals: { lastRequest: u.lastRequest ?? null },
      });
    }
    out.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
    return out;
  }

  private add(t: UsageTotals, r: UsageRecord): void {
    const tokens = r.input + r.output + r.cacheRead + r.cacheWrite;
    if (tokens === 0) return; // a limit notice, not a request
    t.inputTokens += r.input;
    t.outputTokens += r.output;
    t.cacheReadTokens += r.cacheRead;
    t.cacheCreationTokens += r.cacheWrite;
    t.reasoningTokens += r.reasoning;
    t.totalTokens += tokens;
    t.requests++;
    if (r.model && !t.models.includes(r.model)) t.models.push(r.model);
    const cost = this.pricing.costOf(r.model, r);
    if (cost === null) {
      if (r.model && !t.unpricedModels.includes(r.model)) t.unpricedModels.push(r.model);
      if (!r.model && !t.unpricedModels.includes('(unknown model)')) t.unpricedModels.push('(unknown model)');
    } else t.costUSD = (t.costUSD ?? 0) + cost;
  }

  bySession(filter: UsageFilter = {}): SessionUsage[] {
    const sessions = this.sessions(filter);
    const rows = this.sessionUsages(sessions, this.records(sessions, filter));
    // Subagents read only for their parents' totals are not rows of their own here.
    const named = filter.sessionIds ?? (filter.sessionId !== undefined ? [filter.sessionId] : null);
    return named ? rows.filter((r) => named.includes(r.session)) : rows;
  }

  /**
   * One row per session with requests: its totals hold its own requests and its subagents' (any
   * depth, as ccusage counts them in the parent), `own` its share; context fill is its own. Each
   * record still counts once in a row's totals, so day, model and block reports are unaffected.
   */
  private sessionUsages(sessions: Map<number, SessionInfo>, records: UsageRecord[]): SessionUsage[] {
    type Entry = { totals: UsageTotals; own: UsageTotals; last: UsageRecord | null; history: number[]; lastAt: string | null; subagents: Set<string>; hit: LimitHit | null };
    const per = new Map<number, Entry>();
    const entry = (rowid: number): Entry => {
      let e = per.get(rowid);
      if (!e) per.set(rowid, (e = { totals: emptyTotals(), own: emptyTotals(), last: null, history: [], lastAt: null, subagents: new Set(), hit: null }));
      return e;
    };
    const rowidById = new Map([...sessions.values()].map((s) => [s.id, s.rowid] as const));
    /** The sessions whose totals include this one's requests: its parent, and theirs, while they roll up. */
    const ancestors = (s: SessionInfo): number[] => {
      const out: number[] = [];
      let child = s;
      while (child.parentKind === 'subagent' && child.parentId !== null && child.parentId !== child.id) {
        const rowid = rowidById.get(child.parentId);
        const parent = rowid === undefined ? undefined : sessions.get(rowid);
        if (!parent || out.includes(parent.rowid) || parent.rowid === s.rowid) break;
        out.push(parent.rowid);
        child = parent;
      }
      return out;
    };
    const ancestorsOf = new Map<number, number[]>();
    const runs = new HitRuns();
    for (const r of records) {
      const s = sessions.get(r.sessionRowid);
      const e = entry(r.sessionRowid);
      this.add(e.totals, r);
      this.add(e.own, r);
      // A request's prompt side; a session's running totals stand for its latest request only when the agent recorded it.
      const asked = r.totals ? r.totals.lastRequest : r;
      const prompt = asked ? asked.input + asked.cacheRead + asked.cacheWrite : 0;
      if (prompt > 0 && (s?.hasEvents || r.totals)) {
        e.last = r;
        e.history.push(prompt);
      }
      if (r.at && (e.lastAt === null || r.at > e.lastAt)) e.lastAt = r.at;
      e.hit = runs.feed(r, s) ?? e.hit;
      if (!s) continue;
      let up = ancestorsOf.get(s.rowid);
      if (!up) ancestorsOf.set(s.rowid, (up = ancestors(s)));
      for (const rowid of up) {
        const a = entry(rowid);
        this.add(a.totals, r);
        a.subagents.add(s.id);
        if (r.at && (a.lastAt === null || r.at > a.lastAt)) a.lastAt = r.at;
      }
    }
    const out: SessionUsage[] = [];
    for (const [rowid, e] of per) {
      const s = sessions.get(rowid);
      if (!s || (e.totals.requests === 0 && !e.hit)) continue;
      out.push({
        session: s.id,
        agent: s.agent,
        title: s.title,
        cwd: s.cwd,
        lastActivity: e.lastAt ?? s.updatedAt,
        ...e.totals,
        ...this.context(e.last),
        contextHistory: e.history.slice(-HISTORY_POINTS),
        own: ownOf(e.own),
        subagents: [...e.subagents],
        limitHit: e.hit,
      });
    }
    return out.sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  }

  private context(last: UsageRecord | null): Pick<SessionUsage, 'contextTokens' | 'contextWindow' | 'contextPercent'> {
    if (!last) return { contextTokens: null, contextWindow: null, contextPercent: null };
    // Running totals say how much a session used, not what its context holds now.
    const prompt = last.totals ? last.totals.lastRequest : last;
    if (!prompt) return { contextTokens: null, contextWindow: null, contextPercent: null };
    const tokens = prompt.input + prompt.cacheRead + prompt.cacheWrite;
    const window = last.contextWindow ?? this.pricing.contextWindowOf(last.model);
    return { contextTokens: tokens, contextWindow: window, contextPercent: window ? Math.min(100, Math.round((tokens / window) * 1000) / 10) : null };
  }

  byDay(filter: UsageFilter = {}): DayUsage[] {
    const sessions = this.sessions(filter);
    const days = new Map<string, DayUsage>();
    for (const r of this.records(sessions, filter)) {
      if (!r.at) continue;
      const date = localDay(r.at);
      let d = days.get(date);
      if (!d) days.set(date, (d = { date, agents: [], ...emptyTotals() }));
      this.add(d, r);
      const agent = sessions.get(r.sessionRowid)?.agent;
      if (agent && !d.agents.includes(agent)) d.agents.push(agent);
    }
    return [...days.values()].filter((d) => d.requests > 0).sort((a, b) => a.date.localeCompare(b.date));
  }

  byModel(filter: UsageFilter = {}): ModelUsage[] {
    const sessions = this.sessions(filter);
    const models = new Map<string, ModelUsage>();
    for (const r of this.records(sessions, filter)) {
      const model = r.model ?? '(unknown model)';
      let m = models.get(model);
      if (!m) models.set(model, (m = { model, agents: [], ...emptyTotals() }));
      this.add(m, r);
      const agent = sessions.get(r.sessionRowid)?.agent;
      if (agent && !m.agents.includes(agent)) m.agents.push(agent);
    }
    return [...models.values()].filter((m) => m.requests > 0).sort((a, b) => b.totalTokens - a.totalTokens);
  }

  /**
   * ccusage's blocks: a block starts at the hour of its first request and spans 5 hours; a request
   * after the block's end, or after a 5-hour gap, starts the next one.
   */
  byBlock(filter: UsageFilter = {}): BlockUsage[] {
    const sessions = this.sessions(filter);
    return this.blocks(sessions, this.records(sessions, filter));
  }

  private blocks(sessions: Map<number, SessionInfo>, records: UsageRecord[]): BlockUsage[] {
    const blocks: BlockUsage[] = [];
    let current: BlockUsage | null = null;
    let startMs = 0;
    let lastMs = 0;
    for (const r of records) {
      if (!r.at || r.input + r.output + r.cacheRead + r.cacheWrite === 0) continue;
      const t = Date.parse(r.at);
      if (!Number.isFinite(t)) continue;
      if (!current || t - startMs >= BLOCK_MS || t - lastMs >= BLOCK_MS) {
        startMs = Math.floor(t / 3_600_000) * 3_600_000;
        current = { start: new Date(startMs).toISOString(), end: new Date(startMs + BLOCK_MS).toISOString(), actualEnd: r.at, isActive: false, agents: [], ...emptyTotals() };
        blocks.push(current);
      }
      lastMs = t;
      current.actualEnd = r.at;
      this.add(current, r);
      const agent = sessions.get(r.sessionRowid)?.agent;
      if (agent && !current.agents.includes(agent)) current.agents.push(agent);
    }
    const now = this.now();
    for (const b of blocks) b.isActive = now < Date.parse(b.end) && now - Date.parse(b.actualEnd) < BLOCK_MS;
    return blocks;
  }

  /**
   * Every limit hit recorded in the filtered sessions (reset passed or not), oldest first: what the
   * reset watcher and unattended continuation read.
   */
  limitHits(filter: UsageFilter = {}): LimitHit[] {
    const { where, params } = whereOf(filter);
    const hitSessions = this.db
      .prepare(`SELECT DISTINCT s.id FROM usage_events e JOIN sessions s ON s.rowid = e.session_rowid ${where ? `${where} AND` : 'WHERE'} e.limits LIKE '%"reached"%'`)
      .pluck()
      .all(params) as string[];
    if (hitSessions.length === 0) return [];
    const sessions = this.sessions({ ...filter, sessionIds: hitSessions });
    const runs = new HitRuns();
    const byKey = new Map<string, LimitHit>();
    for (const r of this.records(sessions, { ...filter, sessionIds: hitSessions })) {
      const hit = runs.feed(r, sessions.get(r.sessionRowid));
      if (hit && r.limits?.some((l) => l.name === 'reached')) byKey.set(hit.key, hit);
    }
    return [...byKey.values()].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  }

  /**
   * Per agent: today's totals, its usage windows, a recent limit hit, live sessions with their
   * context fill, the active 5-hour block. The UI and the alert watcher ask for it after every index
   * change, so it reads the sessions once and only the last SUMMARY_DAYS of records (enough for
   * today, a weekly window, a limit hit still ahead and the active block), all agents in one pass;
   * live sessions' totals are then read whole, for those few sessions only.
   */
  summary(opts: { agent?: AgentId; sessionId?: string; agents: readonly AgentId[] }): UsageSummary {
    const now = this.now();
    const today = localDay(new Date(now).toISOString());
    const out: UsageSummary = { generatedAt: new Date(now).toISOString(), agents: [] };
    const agents = opts.agent ? [opts.agent] : opts.agents;
    const sessions = this.sessions({ agent: opts.agent });
    const recent = this.records(sessions, { agent: opts.agent, since: new Date(now - SUMMARY_DAYS * 86_400_000).toISOString() });
    const byAgent = new Map<AgentId, { sessions: Map<number, SessionInfo>; records: UsageRecord[] }>(agents.map((a) => [a, { sessions: new Map(), records: [] }]));
    for (const [rowid, info] of sessions) byAgent.get(info.agent)?.sessions.set(rowid, info);
    for (const r of recent) {
      const agent = sessions.get(r.sessionRowid)?.agent;
      if (agent) byAgent.get(agent)?.records.push(r);
    }
    const live = new Set<string>();
    for (const [, group] of byAgent) {
      for (const r of group.records) {
        if (r.at && now - Date.parse(r.at) < LIVE_MS) live.add(group.sessions.get(r.sessionRowid)!.id);
      }
    }
    const liveUsage = live.size ? this.bySession({ sessionIds: [...live] }) : [];
    for (const agent of agents) {
      const group = byAgent.get(agent)!;
      const totals = emptyTotals();
      const windows = new Map<string, UsageLimit & { reportedAt: string | null }>();
      let limitHit: AgentUsageSummary['limitHit'] = null;
      const runs = new HitRuns();
      for (const r of group.records) {
        if (r.at && localDay(r.at) === today) this.add(totals, r);
        if (r.limits?.some((l) => l.name === 'reached')) limitHit = runs.feed(r, group.sessions.get(r.sessionRowid));
        else runs.feed(r, undefined);
        for (const l of r.limits ?? []) if (l.name !== 'reached') windows.set(l.name, { ...l, reportedAt: r.at });
      }
      if (limitHit && !isLimitActive(limitHit, now)) limitHit = null;
      const liveSessions = liveUsage.filter((s) => s.agent === agent && s.lastActivity && now - Date.parse(s.lastActivity) < LIVE_MS);
      const activeBlock = this.blocks(group.sessions, group.records).find((b) => b.isActive) ?? null;
      if (totals.requests === 0 && windows.size === 0 && !limitHit && liveSessions.length === 0 && group.sessions.size === 0) continue;
      out.agents.push({ agent, today: totals, windows: [...windows.values()], limitHit, liveSessions, activeBlock });
    }
    if (opts.sessionId) out.session = this.bySession({ sessionId: opts.sessionId })[0];
    return out;
  }
}

/** A hit still in force: its reset ahead, or (no reset known) recorded less than a 5-hour block ago. */
export function isLimitActive(hit: Pick<LimitHit, 'at' | 'resetsAt'>, now: number): boolean {
  const reset = hit.resetsAt ? Date.parse(hit.resetsAt) : hit.at ? Date.parse(hit.at) + BLOCK_MS : 0;
  return reset > now;
}
