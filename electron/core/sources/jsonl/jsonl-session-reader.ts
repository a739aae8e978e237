/**
 * The part shared by the JSONL adapters (Claude Code, Codex, Gemini CLI, Qwen Code, pi): drive the tailer over one file, hand
 * each record to an agent-specific parser, keep per-session aggregates (turns, tools, usage, title…)
 * inside the unit's cursor so they survive incremental reads, and cut the output into bounded
 * batches whose cursor is exact.
 */
import type { AgentId, Diagnostic, Message, MessageKind, MessageRole, ParentKind, SeqRange, Session, TokenUsage, UsageEvent } from '../../../../shared/model.js';
import type { SourceStatusTracker } from '../source-status.js';
import { isTailCursor, openTail, type LineShortcut, type TailCursor, type TailDiagnosticDetail, type TailRecord } from './jsonl-tail.js';
import type { JsonValue, ReadBatch, ReadContext, SourceUnit } from '../types.js';

export const MAX_BATCH_MESSAGES = 2000;
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;
const MAX_TOOL_NAMES = 256;

/** Everything the index needs to rebuild a Session, kept small enough to live in a cursor. */
export interface SessionAgg {
  nativeId: string;
  title: string | null;
  /** Precedence of the source `title` came from; a higher rank replaces, an equal rank updates. */
  titleRank: number;
  cwd: string | null;
  gitBranch: string | null;
  gitCommit: string | null;
  model: string | null;
  startedAt: string | null;
  updatedAt: string | null;
  firstPrompt: string | null;
  userTurns: number;
  /** Messages delivered so far = the next message's seq. */
  seq: number;
  toolNames: string[];
  usage: TokenUsage;
  parentId: string | null;
  /** What the parent link means (see Session.parentKind). */
  parentKind: ParentKind | null;
  /** Seq ranges off the current conversation (tree-shaped transcripts only). */
  otherBranchSeqs?: SeqRange[];
}

export interface NewMessage {
  role: MessageRole;
  kind: MessageKind;
  text: string;
  toolName?: string | null;
  toolCallId?: string | null;
  isError?: boolean;
  timestamp?: string | null;
  nativeId?: string | null;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** A session with nothing read yet (every reader starts from it). */
export function newAgg(nativeId: string): SessionAgg {
  return {
    nativeId,
    title: null,
    titleRank: 0,
    cwd: null,
    gitBranch: null,
    gitCommit: null,
    model: null,
    startedAt: null,
    updatedAt: null,
    firstPrompt: null,
    userTurns: 0,
    seq: 0,
    toolNames: [],
    usage: emptyUsage(),
    parentId: null,
    parentKind: null,
  };
}

export function setTitle(agg: SessionAgg, title: string, rank: number): void {
  if (rank >= agg.titleRank && title.length > 0) {
    agg.title = title;
    agg.titleRank = rank;
  }
}

export function noteTimestamp(agg: SessionAgg, ts: string | null | undefined): void {
  if (typeof ts !== 'string' || ts.length === 0) return;
  if (agg.startedAt === null || ts < agg.startedAt) agg.startedAt = ts;
  if (agg.updatedAt === null || ts > agg.updatedAt) agg.updatedAt = ts;
}

/** What a parser writes into while it handles records. */
export class RecordSink {
  readonly messages: Message[] = [];
  readonly usage: UsageEvent[] = [];
  readonly touched = new Set<string>();
  readonly resetSessions: string[] = [];
  private lastNativeId: string | null = null;
  private lastAgg: SessionAgg | null = null;
  /** Message.sessionId of `idAgg` (one string for all its messages, not one per message). */
  private idAgg: SessionAgg | null = null;
  private idString = '';

  constructor(
    private readonly agent: AgentId,
    private readonly sessions: Record<string, SessionAgg>,
    /** Sessions not yet announced in resetSessions during a from-scratch read. */
    private readonly announce: Set<string> | null,
  ) {}

  /** The aggregate for `nativeId`, created on first use; marks it as touched by this batch. */
  session(nativeId: string): SessionAgg {
    // Almost every line of a file names the same session as the one before.
    if (nativeId === this.lastNativeId && this.lastAgg !== null) return this.lastAgg;
    let agg = this.sessions[nativeId];
    if (!agg) {
      agg = newAgg(nativeId);
      this.sessions[nativeId] = agg;
    }
    if (!this.touched.has(nativeId)) {
      this.touched.add(nativeId);
      // A unit read from scratch owns its sessions: the index drops older rows for them first
      // (covers re-indexing and a Codex rollout that moved to its .jsonl.zst archive).
      if (this.announce && !this.announce.has(nativeId)) {
        this.announce.add(nativeId);
        this.resetSessions.push(`${this.agent}:${nativeId}`);
      }
    }
    this.lastNativeId = nativeId;
    this.lastAgg = agg;
    return agg;
  }

  emit(agg: SessionAgg, m: NewMessage): void {
    this.push(agg, m.role, m.kind, m.text, m.toolName ?? null, m.toolCallId ?? null, m.isError ?? false, m.timestamp ?? null, m.nativeId ?? null);
  }

  /** emit() without the intermediate object (the per-line hot path). */
  push(
    agg: SessionAgg,
    role: MessageRole,
    kind: MessageKind,
    text: string,
    toolName: string | null,
    toolCallId: string | null,
    isError: boolean,
    timestamp: string | null,
    nativeId: string | null,
  ): void {
    if (agg !== this.idAgg) {
      this.idAgg = agg;
      this.idString = `${this.agent}:${agg.nativeId}`;
    }
    this.messages.push({ sessionId: this.idString, seq: agg.seq++, role, kind, text, toolName, toolCallId, isError, timestamp, nativeId });
  }

  /** One request's usage for `agg`'s session (see UsageEvent). */
  usageEvent(agg: SessionAgg, event: Omit<UsageEvent, 'sessionId'>): void {
    this.usage.push({ sessionId: `${this.agent}:${agg.nativeId}`, ...event });
  }

  addTool(agg: SessionAgg, name: string): void {
    if (name.length > 0 && agg.toolNames.length < MAX_TOOL_NAMES && !agg.toolNames.includes(name)) agg.toolNames.push(name);
  }
}

export interface RecordParser<S> {
  /** Per-file parser state, stored in the cursor (keep it small and JSON-only). */
  init(unit: SourceUnit): S;
  handle(rec: TailRecord, state: S, sink: RecordSink): void;
  /** Lines `handle` would learn (next to) nothing from, recognised by their first bytes (see LineShortcut). */
  shortcut?: LineShortcut;
  /** Last adjustments before an aggregate becomes a Session (e.g. titles from side files). */
  finish?(agg: SessionAgg, state: S): void;
}

interface JsonlCursor<S> {
  v: 1;
  tail: TailCursor;
  sessions: Record<string, SessionAgg>;
  state: S;
}

function parseCursor<S>(value: JsonValue | null): JsonlCursor<S> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  if (c.v !== 1 || !isTailCursor(c.tail) || typeof c.sessions !== 'object' || c.sessions === null) return null;
  return value as unknown as JsonlCursor<S>;
}

export function errorCode(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The Session an aggregate stands for (`bytes`: the unit's size as read). */
export function toSession(agent: AgentId, agg: SessionAgg, sourcePath: string, bytes: number): Session {
  return {
    id: `${agent}:${agg.nativeId}`,
    agent,
    nativeId: agg.nativeId,
    title: agg.title,
    cwd: agg.cwd,
    gitBranch: agg.gitBranch,
    gitCommit: agg.gitCommit,
    model: agg.model,
    startedAt: agg.startedAt,
    updatedAt: agg.updatedAt,
    firstPrompt: agg.firstPrompt,
    userTurns: agg.userTurns,
    messageCount: agg.seq,
    toolNames: [...agg.toolNames],
    usage: { ...agg.usage },
    parentId: agg.parentId ? `${agent}:${agg.parentId}` : null,
    ...(agg.parentId && agg.parentKind ? { parentKind: agg.parentKind } : {}),
    sourcePath,
    bytes,
    ...(agg.otherBranchSeqs ? { otherBranchSeqs: agg.otherBranchSeqs.map((r): SeqRange => [r[0], r[1]]) } : {}),
  };
}

export interface ReadJsonlOptions<S> {
  agent: AgentId;
  parser: RecordParser<S>;
  status: SourceStatusTracker;
  maxLineBytes?: number;
  maxBatchMessages?: number;
  maxBatchBytes?: number;
}

/** What `finish` may take from side files: a title (Codex `/rename`, Letta), model and token totals (Droid). */
function sideFacts(agg: SessionAgg): string {
  return JSON.stringify([agg.title, agg.model, agg.usage]);
}

/**
 * A file with no new bytes whose sessions still changed: `finish` takes facts from side files, so
 * it is applied again, and the sessions whose facts moved are delivered alone.
 */
function* refinished<S>(unit: SourceUnit, prev: JsonlCursor<S>, opts: ReadJsonlOptions<S>): Generator<ReadBatch> {
  const finish = opts.parser.finish;
  if (!finish) return;
  const sessions = structuredClone(prev.sessions);
  const state = structuredClone(prev.state);
  const out: Session[] = [];
  for (const agg of Object.values(sessions)) {
    const before = sideFacts(agg);
    finish.call(opts.parser, agg, state); // a method of the parser: keep its `this`
    if (sideFacts(agg) !== before) out.push(toSession(opts.agent, agg, unit.path, prev.tail.zst ? unit.size : prev.tail.size));
  }
  if (out.length === 0) return;
  const cursor: JsonlCursor<S> = { ...prev, sessions, state };
  yield { sessions: out, messages: [], resetSessions: [], goneSessions: [], cursor: cursor as unknown as JsonValue, bytesRead: 0 };
}

/** Reads one JSONL unit from `ctx.cursor`, yielding bounded batches with exact cursors. */
export async function* readJsonlUnit<S>(unit: SourceUnit, ctx: ReadContext, opts: ReadJsonlOptions<S>): AsyncGenerator<ReadBatch> {
  const { agent, parser, status } = opts;
  const maxMessages = opts.maxBatchMessages ?? MAX_BATCH_MESSAGES;
  const maxBytes = opts.maxBatchBytes ?? MAX_BATCH_BYTES;
  const prev = parseCursor<S>(ctx.cursor);
  if (ctx.cursor !== null && prev === null) {
    status.diagnostic({ file: unit.path, message: 'unrecognized cursor; reading the file from the start' }, ctx);
  }
  const diagnostic = (line: number | undefined, message: string, detail?: TailDiagnosticDetail) => {
    const d: Omit<Diagnostic, 'at'> = { file: unit.path, ...(line === undefined ? {} : { line }), message, ...detail };
    // A partial last line is normal while the agent writes: only the index decides (by its age) whether it is a problem.
    if (detail?.kind === 'unfinished_line') return ctx.diagnostic(d);
    if (detail?.kind !== 'invalid_utf8') status.skippedLine(); // a repaired line is kept, not skipped
    status.diagnostic(d, ctx);
  };

  let handle;
  try {
    handle = await openTail(unit.path, prev?.tail ?? null, {
      diagnostic,
      maxLineBytes: opts.maxLineBytes,
      signal: ctx.signal,
      shortcut: parser.shortcut,
      reportUnfinished: true,
    });
  } catch (err) {
    const code = errorCode(err);
    const message = code === 'ENOENT' ? 'file vanished before it could be read' : `cannot open: ${errorMessage(err)}`;
    status.error({ file: unit.path, message, ...(code === 'ENOENT' ? {} : { kind: 'unreadable' as const }) }, ctx);
    if (code === 'ENOENT' && prev) {
      const gone = Object.keys(prev.sessions).map((id) => `${agent}:${id}`);
      if (gone.length > 0) yield { sessions: [], messages: [], resetSessions: [], goneSessions: gone, cursor: ctx.cursor, bytesRead: 0 };
    }
    return;
  }
  if (handle.unchanged) {
    if (prev) yield* refinished(unit, prev, opts);
    return;
  }

  const fromScratch = prev === null || handle.reset;
  const sessions: Record<string, SessionAgg> = fromScratch ? {} : structuredClone(prev.sessions);
  const state: S = fromScratch ? parser.init(unit) : structuredClone(prev.state);
  const announce = fromScratch ? new Set<string>() : null;
  let pendingReset: string[] = handle.reset && prev ? Object.keys(prev.sessions).map((id) => `${agent}:${id}`) : [];
  if (handle.reset) status.diagnostic({ file: unit.path, message: 'file was replaced or truncated; re-reading it from the start', kind: 'reread' }, ctx);

  let sink = new RecordSink(agent, sessions, announce);
  let batchBytes = 0;
  let tail: TailCursor | null = null;
  status.unitOpened(unit.key);

  /**
   * `last`: nothing touches the aggregates afterwards, so the cursor may own them uncopied. The last
   * batch carries every session of the file, touched or not: a session's size is its file's, and
   * lines that add no message (Claude's `last-prompt`, `file-history-snapshot` at exit) grow it too.
   */
  const flush = (last: boolean): ReadBatch => {
    const out: Session[] = [];
    for (const id of last ? new Set([...sink.touched, ...Object.keys(sessions)]) : sink.touched) {
      const agg = sessions[id];
      if (!agg) continue;
      parser.finish?.(agg, state);
      out.push(toSession(agent, agg, unit.path, tail?.zst ? unit.size : (tail?.size ?? unit.size)));
    }
    const resetSessions = [...new Set([...pendingReset, ...sink.resetSessions])];
    pendingReset = [];
    const cursor: JsonlCursor<S> = { v: 1, tail: tail!, sessions: last ? sessions : structuredClone(sessions), state: last ? state : structuredClone(state) };
    const batch: ReadBatch = {
      sessions: out,
      messages: sink.messages,
      resetSessions,
      goneSessions: [],
      cursor: cursor as unknown as JsonValue,
      bytesRead: batchBytes,
      ...(sink.usage.length > 0 ? { usage: sink.usage } : {}),
    };
    status.unitRead(unit.key, out.map((s) => s.id), sink.messages.length);
    sink = new RecordSink(agent, sessions, announce);
    batchBytes = 0;
    return batch;
  };

  try {
    for await (const chunk of handle.chunks()) {
      for (const rec of chunk.records) {
        try {
          parser.handle(rec, state, sink);
        } catch (err) {
          diagnostic(rec.line, `record could not be interpreted (${errorMessage(err)}); skipped`, { kind: 'malformed_lines' });
        }
      }
      tail = chunk.cursor;
      batchBytes += chunk.bytesRead;
      // Chunks hold ≤ 256 records, so flushing at 3/4 keeps batches under maxMessages.
      if (sink.messages.length >= (maxMessages * 3) / 4 || batchBytes >= maxBytes) yield flush(false);
      if (ctx.signal?.aborted) return;
    }
  } catch (err) {
    // Vanished mid-read, I/O error, corrupt zstd frame: keep what was committed, report, move on.
    status.error({ file: unit.path, message: `read failed: ${errorMessage(err)}`, kind: 'unreadable' }, ctx);
    if (tail && (sink.messages.length > 0 || sink.touched.size > 0)) yield flush(true);
    return;
  }
  if (tail) yield flush(true);
}
