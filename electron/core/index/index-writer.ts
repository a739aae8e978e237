/**
 * The only code that writes `index.db`. Each adapter batch lands in one transaction together with
 * the unit's new cursor, so a crash between batches resumes exactly where the last commit ended:
 * nothing lost, nothing twice. Messages are upserted on (session, seq), so a re-read is idempotent.
 */
import type { AgentId, Message, Session } from '../../../shared/model.js';
import type { JsonValue, ReadBatch, SourceUnit } from '../sources/types.js';
import type { IndexDb } from './index-db.js';
import { FTS_DELETE_SQL, FTS_INSERT_SQL, SEQ_SPAN, STORED_TEXT_CHARS, STORED_TOOL_OUTPUT_CHARS } from './index-schema.js';
import { isIndexedKind, messageIndexForm } from './fts-text.js';
import { PendingFts } from './pending-fts.js';
import { mergeUsage } from './usage-merge.js';
import { ProblemStore } from './read-problems.js';

/**
 * A batch as the writer takes it: what the adapter read, plus (from the read-ahead worker) each
 * message's FTS text already prepared with messageIndexForm, so the writer's thread skips that work.
 */
export interface IndexBatch extends ReadBatch {
  indexForms?: (string | null)[];
  /**
   * `cursor` already serialized (by the read-ahead worker). A SQLite store's cursor is its whole
   * per-session state (~0.5–0.75 MB for 10k sessions), saved with every batch: serialized once
   * where it was made, it crosses threads as one string and the writer skips JSON.stringify.
   */
  cursorJson?: string;
}

/** Prepares `indexForms` for a batch (run on the read-ahead worker's thread). */
export function withIndexForms(batch: ReadBatch): IndexBatch {
  const indexForms = batch.messages.map((m) => messageIndexForm(m.kind, m.toolName, capText(m.text ?? '', m.kind)));
  return { ...batch, indexForms };
}

export interface UnitRecord {
  key: string;
  agent: AgentId;
  path: string;
  cursor: JsonValue | null;
  syncedSize: number | null;
  syncedMtime: number | null;
  syncedStamp: string | null;
}

/** What a unit looked like when it was last read to its end. */
export interface SyncedUnit {
  size: number;
  mtimeMs: number;
  stamp: string | null;
}

export interface ApplyResult {
  sessionsWritten: number;
  messagesWritten: number;
  /** Session ids touched by this batch (for change notifications). */
  sessionIds: string[];
  /** True when this call committed (always, outside a group; at a group's size limit inside one). */
  committed: boolean;
}

/** A group transaction commits once this many messages or bytes read have accumulated. */
export const GROUP_COMMIT_MESSAGES = 30_000;
export const GROUP_COMMIT_BYTES = 32 * 1024 * 1024;
/**
 * Messages inserted by one statement when a run of them is new (see insertNewRun): one statement
 * per row spent ~30 % of a cold index's message writes on the per-statement round trip.
 */
const INSERT_RUN = 16;
const MESSAGE_COLUMNS = 9;
/** meta key present while an FTS compaction is due (its value: since when). */
const COMPACTION_DUE_KEY = 'fts_compaction_due';
/** Leaf pages one compaction step writes: ≈ 100 ms on the bench machine, so an append waits at most that. */
export const COMPACT_STEP_PAGES = 200;

interface MessageRow {
  id: number;
  role: string;
  kind: string;
  text: string;
  tool_name: string | null;
  toolCallId: string | null;
  isError: number;
  timestamp: string | null;
  nativeId: string | null;
}

interface StoredMessage {
  role: string;
  kind: string;
  text: string;
  tool_name: string | null;
  is_error: number;
  timestamp: string | null;
}

interface UnitRow {
  key: string;
  agent: string;
  path: string;
  cursor: string | null;
  synced_size: number | null;
  synced_mtime: number | null;
  synced_stamp: string | null;
}

export function messageRowId(sessionRowid: number, seq: number): number {
  return sessionRowid * SEQ_SPAN + seq;
}

/** Caps stored text; the marker tells readers (and briefs) that the rest was dropped. */
export function capText(text: string, kind: Message['kind']): string {
  const limit = kind === 'tool_result' ? STORED_TOOL_OUTPUT_CHARS : STORED_TEXT_CHARS;
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… [${text.length - limit} more characters not kept by the Baton index]`;
}

export class IndexWriter {
  private readonly stmts;
  /** Files that could not be read (wholly), kept until they read (see read-problems.ts). */
  readonly problems: ProblemStore;
  private readonly rowids = new Map<string, number>();
  private readonly applyTx: (agent: AgentId, unit: SourceUnit, batch: IndexBatch, reset: string[]) => ApplyResult;
  private group: { messages: number; bytes: number } | null = null;
  /** Inside a bulk group (see beginGroup): synchronous is OFF. */
  private bulk = false;
  /**
   * FTS changes of the open transaction, applied just before it commits. Any statement that needs a
   * statement journal (every upsert: sessions, cursors) makes FTS5 flush its pending terms to a new
   * segment; interleaved with them, FTS5 wrote a tiny segment per batch and spent the cold index
   * merging them. Applied last, the whole transaction's terms go out in a few large segments.
   * `text: null` deletes the row's entry; order is kept, so a delete precedes its re-insert.
   */
  private readonly ftsOps = new PendingFts();
  /** insertNewRun's bound values, reused. */
  private readonly runParams = new Array<unknown>(INSERT_RUN * MESSAGE_COLUMNS);

  constructor(
    private readonly db: IndexDb,
    /** Size at which a group transaction commits (see beginGroup). */
    private readonly groupLimit: { messages: number; bytes: number } = { messages: GROUP_COMMIT_MESSAGES, bytes: GROUP_COMMIT_BYTES },
  ) {
    this.problems = new ProblemStore(db);
    this.stmts = {
      getUnit: db.prepare('SELECT key, agent, path, cursor, synced_size, synced_mtime, synced_stamp FROM units WHERE key = ?'),
      unitKeys: db.prepare('SELECT key FROM units WHERE agent = ?').pluck(),
      syncedUnits: db.prepare('SELECT key, synced_size, synced_mtime, synced_stamp FROM units WHERE synced_size IS NOT NULL'),
      saveCursor: db.prepare(`INSERT INTO units (key, agent, path, cursor, synced_size, synced_mtime, bytes_read, updated_at)
        VALUES (@key, @agent, @path, @cursor, NULL, NULL, @bytes, @now)
        ON CONFLICT (key) DO UPDATE SET cursor = excluded.cursor, path = excluded.path,
          synced_size = NULL, synced_mtime = NULL, bytes_read = bytes_read + excluded.bytes_read, updated_at = excluded.updated_at`),
      // A batch without a cursor: the saved one stays (the unit is still mid-read).
      noteBatch: db.prepare(`INSERT INTO units (key, agent, path, cursor, synced_size, synced_mtime, bytes_read, updated_at)
        VALUES (@key, @agent, @path, NULL, NULL, NULL, @bytes, @now)
        ON CONFLICT (key) DO UPDATE SET path = excluded.path,
          synced_size = NULL, synced_mtime = NULL, bytes_read = bytes_read + excluded.bytes_read, updated_at = excluded.updated_at`),
      markSynced: db.prepare(`INSERT INTO units (key, agent, path, cursor, synced_size, synced_mtime, synced_stamp, updated_at)
        VALUES (@key, @agent, @path, NULL, @size, @mtime, @stamp, @now)
        ON CONFLICT (key) DO UPDATE SET synced_size = excluded.synced_size, synced_mtime = excluded.synced_mtime,
          synced_stamp = excluded.synced_stamp, updated_at = excluded.updated_at`),
      deleteUnit: db.prepare('DELETE FROM units WHERE key = ?'),
      goneByUnit: db.prepare('UPDATE sessions SET source_gone = 1 WHERE unit_key = ? AND source_gone = 0 RETURNING id').pluck(),
      goneById: db.prepare('UPDATE sessions SET source_gone = 1 WHERE id = ? AND source_gone = 0'),
      sessionRowid: db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck(),
      upsertSession: db.prepare(`INSERT INTO sessions (id, agent, native_id, title, cwd, git_branch, git_commit, model,
          started_at, updated_at, first_prompt, user_turns, message_count, tool_names, usage, parent_id, parent_kind,
          source_path, bytes, source_gone, unit_key, other_branches)
        VALUES (@id, @agent, @nativeId, @title, @cwd, @gitBranch, @gitCommit, @model, @startedAt, @updatedAt,
          @firstPrompt, @userTurns, @messageCount, @toolNames, @usage, @parentId, @parentKind, @sourcePath, @bytes, @sourceGone, @unitKey,
          @otherBranches)
        ON CONFLICT (id) DO UPDATE SET agent = excluded.agent, native_id = excluded.native_id, title = excluded.title,
          cwd = excluded.cwd, git_branch = excluded.git_branch, git_commit = excluded.git_commit, model = excluded.model,
          started_at = excluded.started_at, updated_at = excluded.updated_at, first_prompt = excluded.first_prompt,
          user_turns = excluded.user_turns, message_count = excluded.message_count, tool_names = excluded.tool_names,
          usage = excluded.usage, parent_id = excluded.parent_id, parent_kind = excluded.parent_kind, source_path = excluded.source_path,
          bytes = excluded.bytes, source_gone = excluded.source_gone, unit_key = excluded.unit_key,
          other_branches = excluded.other_branches
        RETURNING rowid`).pluck(),
      placeholderSession: db.prepare(`INSERT INTO sessions (id, agent, native_id, unit_key) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING`),
      // Positional parameters: binding an array is measurably cheaper than named ones per row.
      insertMessage: db.prepare(`INSERT INTO messages (id, role, kind, text, tool_name, tool_call_id, is_error, timestamp, native_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING`),
      insertMessages: db.prepare(`INSERT INTO messages (id, role, kind, text, tool_name, tool_call_id, is_error, timestamp, native_id)
        VALUES ${Array.from({ length: INSERT_RUN }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`),
      anyMessageIn: db.prepare('SELECT 1 FROM messages WHERE id >= ? AND id <= ? LIMIT 1').pluck(),
      getMessage: db.prepare('SELECT role, kind, text, tool_name, is_error, timestamp FROM messages WHERE id = ?'),
      updateMessage: db.prepare(`UPDATE messages SET role = @role, kind = @kind, text = @text, tool_name = @tool_name,
        tool_call_id = @toolCallId, is_error = @isError, timestamp = @timestamp, native_id = @nativeId WHERE id = @id`),
      ftsInsert: db.prepare(FTS_INSERT_SQL),
      ftsDelete: db.prepare(FTS_DELETE_SQL),
      indexedInRange: db.prepare("SELECT id FROM messages WHERE id >= ? AND id < ? AND kind != 'thinking'").pluck(),
      resetMessages: db.prepare('DELETE FROM messages WHERE id >= ? AND id < ?'),
      resetUsage: db.prepare('DELETE FROM usage_events WHERE session_rowid = ?'),
      // A response seen again (streaming builds repeat it per content block) keeps its largest counts.
      upsertUsage: db.prepare(`INSERT INTO usage_events (session_rowid, key, at, model, input, output, cache_read, cache_write, reasoning, context_window, limits)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (session_rowid, key) DO UPDATE SET at = coalesce(at, excluded.at), model = coalesce(excluded.model, model),
          input = max(input, excluded.input), output = max(output, excluded.output), cache_read = max(cache_read, excluded.cache_read),
          cache_write = max(cache_write, excluded.cache_write), reasoning = max(reasoning, excluded.reasoning),
          context_window = coalesce(excluded.context_window, context_window), limits = coalesce(excluded.limits, limits)`),
      totalChanges: db.prepare('SELECT total_changes()').pluck(),
      ftsMerge: db.prepare("INSERT INTO message_fts (message_fts, rank) VALUES ('merge', ?)"),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      deleteMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
    };
    const tx = db.transaction((agent: AgentId, unit: SourceUnit, batch: IndexBatch, reset: string[]) => {
      const r = this.applyInTx(agent, unit, batch, reset);
      this.flushFts();
      return r;
    });
    this.applyTx = (agent, unit, batch, reset) => {
      try {
        return tx(agent, unit, batch, reset);
      } catch (err) {
        this.ftsOps.clear(); // rolled back with the rest
        throw err;
      }
    };
  }

  /**
   * Every unit's size, mtime and stamp as of its last complete read, in one query: a full pass
   * compares thousands of listed units against it instead of looking each one up (and parsing its
   * cursor) on its own.
   */
  syncedUnits(): Map<string, SyncedUnit> {
    const rows = this.stmts.syncedUnits.all() as { key: string; synced_size: number; synced_mtime: number; synced_stamp: string | null }[];
    return new Map(rows.map((r) => [r.key, { size: r.synced_size, mtimeMs: r.synced_mtime, stamp: r.synced_stamp }]));
  }

  getUnit(key: string): UnitRecord | null {
    const row = this.stmts.getUnit.get(key) as UnitRow | undefined;
    if (!row) return null;
    return {
      key: row.key,
      agent: row.agent as AgentId,
      path: row.path,
      cursor: row.cursor === null ? null : (JSON.parse(row.cursor) as JsonValue),
      syncedSize: row.synced_size,
      syncedMtime: row.synced_mtime,
      syncedStamp: row.synced_stamp,
    };
  }

  unitKeys(agent: AgentId): string[] {
    return this.stmts.unitKeys.all(agent) as string[];
  }

  /**
   * Writes one batch and the unit's cursor atomically. `extraResets` names sessions whose stored
   * messages must go before this batch's (e.g. a unit re-read from scratch after it reappeared).
   */
  apply(agent: AgentId, unit: SourceUnit, batch: IndexBatch, extraResets: string[] = []): ApplyResult {
    const group = this.group;
    if (!group) return { ...this.applyTx(agent, unit, batch, extraResets), committed: true };
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    let r: ApplyResult;
    try {
      r = this.applyInTx(agent, unit, batch, extraResets);
    } catch (err) {
      // Everything since the group's last commit goes, cursors included: those units resume from
      // their last committed cursor on the next sync.
      this.rollbackGroup();
      throw err;
    }
    group.messages += batch.messages.length;
    group.bytes += batch.bytesRead;
    if (group.messages >= this.groupLimit.messages || group.bytes >= this.groupLimit.bytes) {
      this.commitGroup();
      r.committed = true;
    }
    return r;
  }

  /**
   * Batches applied until endGroup() share transactions of up to ~30k messages / 32 MB read (each
   * still carrying its cursor, so a crash resumes at the last commit). Much faster for a cold index:
   * FTS5 writes one segment per commit, and small segments cost far more per byte than big ones.
   * Readers see the rows only at each commit, so this is for bulk runs, not single appends.
   */
  beginGroup(opts: { bulk?: boolean } = {}): void {
    this.group = { messages: 0, bytes: 0 };
    // A big pass (a cold index) skips the fsyncs of each WAL checkpoint: the index is a cache, a
    // process crash loses nothing committed, and a file an OS crash leaves unreadable is set aside
    // and rebuilt at the next open (index-db.ts). Back to NORMAL at endGroup.
    if (opts.bulk) {
      this.db.pragma('synchronous = OFF');
      this.bulk = true;
    }
  }

  inGroup(): boolean {
    return this.group !== null;
  }

  /** Commits what the group holds and returns to one transaction per batch. */
  endGroup(): void {
    try {
      if (this.group && this.db.inTransaction) this.commitGroup();
    } finally {
      this.group = null;
      if (this.bulk) {
        this.bulk = false;
        this.db.pragma('synchronous = NORMAL');
      }
    }
  }

  /** The connection's synchronous level (1: NORMAL, 0: OFF inside a bulk group). */
  synchronousLevel(): number {
    return this.db.pragma('synchronous', { simple: true }) as number;
  }

  private commitGroup(): void {
    try {
      this.flushFts();
      this.db.exec('COMMIT');
    } catch (err) {
      this.rollbackGroup();
      throw err;
    }
    if (this.group) this.group = { messages: 0, bytes: 0 };
  }

  private rollbackGroup(): void {
    this.ftsOps.clear();
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.rowids.clear(); // rowids handed out inside the rolled-back transaction are gone
    if (this.group) this.group = { messages: 0, bytes: 0 };
  }

  /**
   * One step of FTS compaction: merges segments (all levels, towards one) writing about `pages`
   * leaf pages, in its own transaction. False when there was nothing left to merge (FTS5 makes
   * fewer than two changes then, per its documentation of 'merge').
   */
  compactStep(pages = COMPACT_STEP_PAGES): boolean {
    if (this.db.inTransaction) return true; // never inside a group: try again on the next step
    const before = this.stmts.totalChanges.get() as number;
    this.stmts.ftsMerge.run(-pages);
    return (this.stmts.totalChanges.get() as number) - before >= 2;
  }

  /** Whether a process that deferred it left FTS compaction due (see StoreSyncOptions.deferCompaction). */
  compactionDue(): boolean {
    return this.stmts.getMeta.get(COMPACTION_DUE_KEY) !== undefined;
  }

  setCompactionDue(due: boolean): void {
    if (due) this.stmts.setMeta.run(COMPACTION_DUE_KEY, new Date().toISOString());
    else this.stmts.deleteMeta.run(COMPACTION_DUE_KEY);
  }

  /** Records that `unit` was read to its end at this size/mtime, so an unchanged unit is skipped. */
  markSynced(agent: AgentId, unit: SourceUnit): void {
    this.stmts.markSynced.run({ key: unit.key, agent, path: unit.path, size: unit.size, mtime: unit.mtimeMs, stamp: unit.stamp ?? null, now: new Date().toISOString() });
  }

  /** A unit vanished from its store: keep its sessions (marked gone) and forget its cursor. */
  unitGone(key: string): string[] {
    return this.db.transaction(() => {
      const ids = this.stmts.goneByUnit.all(key) as string[];
      this.stmts.deleteUnit.run(key);
      this.problems.forget(key);
      return ids;
    })();
  }

  private rowidFor(session: string, agent: AgentId, unitKey: string): number {
    const cached = this.rowids.get(session);
    if (cached !== undefined) return cached;
    let rowid = this.stmts.sessionRowid.get(session) as number | undefined;
    if (rowid === undefined) {
      // Messages for a session the batch did not describe: keep them under a minimal row.
      const colon = session.indexOf(':');
      this.stmts.placeholderSession.run(session, agent, colon >= 0 ? session.slice(colon + 1) : session, unitKey);
      rowid = this.stmts.sessionRowid.get(session) as number;
    }
    this.remember(session, rowid);
    return rowid;
  }

  private remember(session: string, rowid: number): void {
    if (this.rowids.size > 50_000) this.rowids.clear();
    this.rowids.set(session, rowid);
  }

  /**
   * Inserts a message (or rewrites it when its content changed) and keeps FTS in step. Returns rows
   * changed. The insert binds the message's fields directly: a cold index inserts a million rows,
   * and only the rare rewrite needs a row object.
   */
  private writeMessage(id: number, m: Message, text: string, form?: string | null): number {
    const isError = m.isError ? 1 : 0;
    const inserted = this.stmts.insertMessage.run(id, m.role, m.kind, text, m.toolName, m.toolCallId, isError, m.timestamp, m.nativeId);
    if (inserted.changes === 1) {
      this.indexText(id, m.kind, m.toolName, text, form);
      return 1;
    }
    const old = this.stmts.getMessage.get(id) as StoredMessage | undefined;
    if (
      !old ||
      (old.text === text && old.kind === m.kind && old.role === m.role && old.tool_name === m.toolName &&
        old.timestamp === m.timestamp && old.is_error === isError)
    ) {
      return 0; // a re-read of the same message: nothing to do
    }
    if (isIndexedKind(old.kind)) this.ftsOps.push(id, null);
    const row: MessageRow = { id, role: m.role, kind: m.kind, text, tool_name: m.toolName, toolCallId: m.toolCallId, isError, timestamp: m.timestamp, nativeId: m.nativeId };
    this.stmts.updateMessage.run(row);
    this.indexText(id, m.kind, m.toolName, text);
    return 1;
  }

  /**
   * Inserts messages[from, from + INSERT_RUN) with one statement when they are all of one session,
   * in rising seq order, and none of their ids is stored yet (one primary-key probe of the range):
   * the common case of a cold index or an append. False, writing nothing, otherwise.
   */
  private insertNewRun(messages: readonly Message[], from: number, rowid: number, forms: readonly (string | null)[] | null): boolean {
    const end = from + INSERT_RUN;
    if (end > messages.length) return false;
    const session = messages[from]!.sessionId;
    for (let i = from + 1; i < end; i++) {
      const m = messages[i]!;
      if (m.sessionId !== session || !validSeq(m.seq) || m.seq <= messages[i - 1]!.seq) return false;
    }
    const first = messageRowId(rowid, messages[from]!.seq);
    const last = messageRowId(rowid, messages[end - 1]!.seq);
    if (this.stmts.anyMessageIn.get(first, last) !== undefined) return false;
    const params = this.runParams;
    const texts: string[] = [];
    for (let i = from, p = 0; i < end; i++) {
      const m = messages[i]!;
      const text = capText(m.text ?? '', m.kind);
      texts.push(text);
      params[p++] = messageRowId(rowid, m.seq);
      params[p++] = m.role;
      params[p++] = m.kind;
      params[p++] = text;
      params[p++] = m.toolName;
      params[p++] = m.toolCallId;
      params[p++] = m.isError ? 1 : 0;
      params[p++] = m.timestamp;
      params[p++] = m.nativeId;
    }
    this.stmts.insertMessages.run(params);
    for (let i = from; i < end; i++) {
      const m = messages[i]!;
      this.indexText(messageRowId(rowid, m.seq), m.kind, m.toolName, texts[i - from]!, forms ? forms[i] : undefined);
    }
    return true;
  }

  /** `form`: prepared by the read-ahead worker (null: not searchable); undefined: compute it here. */
  private indexText(id: number, kind: Message['kind'], toolName: string | null, text: string, form?: string | null): void {
    const indexed = form === undefined ? messageIndexForm(kind, toolName, text) : form;
    if (indexed !== null) this.ftsOps.push(id, indexed);
  }

  private flushFts(): void {
    const { ftsDelete, ftsInsert } = this.stmts;
    this.ftsOps.drain((id, text) => (text === null ? ftsDelete.run(id) : ftsInsert.run(id, text)));
  }

  /** Drops the messages with ids in [from, to) and their FTS entries. */
  private resetRange(from: number, to: number): void {
    for (const id of this.stmts.indexedInRange.all(from, to) as number[]) this.ftsOps.push(id, null);
    this.stmts.resetMessages.run(from, to);
  }

  private applyInTx(agent: AgentId, unit: SourceUnit, batch: IndexBatch, extraResets: string[]): ApplyResult {
    const touched = new Set<string>();
    for (const s of batch.sessions) {
      const rowid = this.stmts.upsertSession.get(sessionParams(s, unit.key)) as number;
      this.remember(s.id, rowid);
      touched.add(s.id);
    }
    for (const id of new Set([...extraResets, ...batch.resetSessions])) {
      const rowid = this.stmts.sessionRowid.get(id) as number | undefined;
      if (rowid !== undefined) {
        this.resetRange(messageRowId(rowid, 0), messageRowId(rowid + 1, 0));
        this.stmts.resetUsage.run(rowid);
      }
      touched.add(id);
    }
    let messagesWritten = 0;
    const forms = batch.indexForms?.length === batch.messages.length ? batch.indexForms : null;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; ) {
      const m = messages[i]!;
      if (!validSeq(m.seq)) {
        i++;
        continue;
      }
      const rowid = this.rowidFor(m.sessionId, agent, unit.key);
      touched.add(m.sessionId);
      if (this.insertNewRun(messages, i, rowid, forms)) {
        messagesWritten += INSERT_RUN;
        i += INSERT_RUN;
        continue;
      }
      messagesWritten += this.writeMessage(messageRowId(rowid, m.seq), m, capText(m.text ?? '', m.kind), forms ? forms[i] : undefined);
      i++;
    }
    // One upsert per (session, key), positional: a cold index writes ~100k of them.
    for (const u of mergeUsage(batch.usage ?? [])) {
      const rowid = this.rowidFor(u.sessionId, agent, unit.key);
      const limits = u.limits ? JSON.stringify(u.limits) : null;
      this.stmts.upsertUsage.run(rowid, u.key, u.at, u.model, u.input, u.output, u.cacheRead, u.cacheWrite, u.reasoning, u.contextWindow, limits);
    }
    for (const id of batch.goneSessions) {
      this.stmts.goneById.run(id);
      touched.add(id);
    }
    const unitRow = { key: unit.key, agent, path: unit.path, bytes: batch.bytesRead, now: new Date().toISOString() };
    const cursor = batch.cursorJson ?? (batch.cursor === undefined ? undefined : JSON.stringify(batch.cursor));
    if (cursor === undefined) this.stmts.noteBatch.run(unitRow);
    else this.stmts.saveCursor.run({ ...unitRow, cursor });
    return { sessionsWritten: batch.sessions.length, messagesWritten, sessionIds: [...touched], committed: false };
  }
}

function validSeq(seq: number): boolean {
  return Number.isInteger(seq) && seq >= 0 && seq < SEQ_SPAN;
}

function sessionParams(s: Session, unitKey: string) {
  return {
    id: s.id,
    agent: s.agent,
    nativeId: s.nativeId,
    title: s.title,
    cwd: s.cwd,
    gitBranch: s.gitBranch,
    gitCommit: s.gitCommit,
    model: s.model,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    firstPrompt: s.firstPrompt,
    userTurns: s.userTurns,
    messageCount: s.messageCount,
    toolNames: JSON.stringify(s.toolNames ?? []),
    usage: JSON.stringify(s.usage ?? {}),
    parentId: s.parentId,
    parentKind: s.parentId ? (s.parentKind ?? null) : null,
    sourcePath: s.sourcePath,
    bytes: s.bytes,
    sourceGone: s.sourceGone ? 1 : 0,
    unitKey,
    otherBranches: s.otherBranchSeqs?.length ? JSON.stringify(s.otherBranchSeqs) : null,
  };
}
