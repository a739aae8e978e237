/**
 * The only code that writes `index.db`. Each adapter batch lands in one transaction together with
 * the unit's new cursor, so a crash between batches resumes exactly where the last commit ended:
 * nothing lost, nothing twice. Messages are upserted on (session, seq), so a re-read is idempotent.
 */
import type { AgentId, Message, Session } from '../../../shared/model.js';
import type { JsonValue, ReadBatch, SourceUnit } from '../sources/types.js';
import type { IndexDb } from './index-db.js';
import { SEQ_SPAN, STORED_TEXT_CHARS, STORED_TOOL_OUTPUT_CHARS } from './index-schema.js';

export interface UnitRecord {
  key: string;
  agent: AgentId;
  path: string;
  cursor: JsonValue | null;
  syncedSize: number | null;
  syncedMtime: number | null;
}

export interface ApplyResult {
  sessionsWritten: number;
  messagesWritten: number;
  /** Session ids touched by this batch (for change notifications). */
  sessionIds: string[];
}

interface UnitRow {
  key: string;
  agent: string;
  path: string;
  cursor: string | null;
  synced_size: number | null;
  synced_mtime: number | null;
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
  private readonly rowids = new Map<string, number>();
  private readonly applyTx: (agent: AgentId, unit: SourceUnit, batch: ReadBatch, reset: string[]) => ApplyResult;

  constructor(private readonly db: IndexDb) {
    this.stmts = {
      getUnit: db.prepare('SELECT key, agent, path, cursor, synced_size, synced_mtime FROM units WHERE key = ?'),
      unitKeys: db.prepare('SELECT key FROM units WHERE agent = ?').pluck(),
      saveCursor: db.prepare(`INSERT INTO units (key, agent, path, cursor, synced_size, synced_mtime, bytes_read, updated_at)
        VALUES (@key, @agent, @path, @cursor, NULL, NULL, @bytes, @now)
        ON CONFLICT (key) DO UPDATE SET cursor = excluded.cursor, path = excluded.path,
          synced_size = NULL, synced_mtime = NULL, bytes_read = bytes_read + excluded.bytes_read, updated_at = excluded.updated_at`),
      markSynced: db.prepare(`INSERT INTO units (key, agent, path, cursor, synced_size, synced_mtime, updated_at)
        VALUES (@key, @agent, @path, NULL, @size, @mtime, @now)
        ON CONFLICT (key) DO UPDATE SET synced_size = excluded.synced_size, synced_mtime = excluded.synced_mtime, updated_at = excluded.updated_at`),
      deleteUnit: db.prepare('DELETE FROM units WHERE key = ?'),
      goneByUnit: db.prepare('UPDATE sessions SET source_gone = 1 WHERE unit_key = ? AND source_gone = 0 RETURNING id').pluck(),
      goneById: db.prepare('UPDATE sessions SET source_gone = 1 WHERE id = ? AND source_gone = 0'),
      sessionRowid: db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck(),
      upsertSession: db.prepare(`INSERT INTO sessions (id, agent, native_id, title, cwd, git_branch, git_commit, model,
          started_at, updated_at, first_prompt, user_turns, message_count, tool_names, usage, parent_id, source_path,
          bytes, source_gone, unit_key)
        VALUES (@id, @agent, @nativeId, @title, @cwd, @gitBranch, @gitCommit, @model, @startedAt, @updatedAt,
          @firstPrompt, @userTurns, @messageCount, @toolNames, @usage, @parentId, @sourcePath, @bytes, @sourceGone, @unitKey)
        ON CONFLICT (id) DO UPDATE SET agent = excluded.agent, native_id = excluded.native_id, title = excluded.title,
          cwd = excluded.cwd, git_branch = excluded.git_branch, git_commit = excluded.git_commit, model = excluded.model,
          started_at = excluded.started_at, updated_at = excluded.updated_at, first_prompt = excluded.first_prompt,
          user_turns = excluded.user_turns, message_count = excluded.message_count, tool_names = excluded.tool_names,
          usage = excluded.usage, parent_id = excluded.parent_id, source_path = excluded.source_path,
          bytes = excluded.bytes, source_gone = excluded.source_gone, unit_key = excluded.unit_key
        RETURNING rowid`).pluck(),
      placeholderSession: db.prepare(`INSERT INTO sessions (id, agent, native_id, unit_key) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING`),
      upsertMessage: db.prepare(`INSERT INTO messages (id, role, kind, text, tool_name, tool_call_id, is_error, timestamp, native_id)
        VALUES (@id, @role, @kind, @text, @toolName, @toolCallId, @isError, @timestamp, @nativeId)
        ON CONFLICT (id) DO UPDATE SET role = excluded.role, kind = excluded.kind, text = excluded.text,
          tool_name = excluded.tool_name, tool_call_id = excluded.tool_call_id, is_error = excluded.is_error,
          timestamp = excluded.timestamp, native_id = excluded.native_id
        WHERE messages.text IS NOT excluded.text OR messages.kind IS NOT excluded.kind OR messages.role IS NOT excluded.role
          OR messages.tool_name IS NOT excluded.tool_name OR messages.timestamp IS NOT excluded.timestamp
          OR messages.is_error IS NOT excluded.is_error`),
      resetMessages: db.prepare('DELETE FROM messages WHERE id >= ? AND id < ?'),
    };
    this.applyTx = db.transaction((agent: AgentId, unit: SourceUnit, batch: ReadBatch, reset: string[]) =>
      this.applyInTx(agent, unit, batch, reset),
    );
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
    };
  }

  unitKeys(agent: AgentId): string[] {
    return this.stmts.unitKeys.all(agent) as string[];
  }

  /**
   * Writes one batch and the unit's cursor atomically. `extraResets` names sessions whose stored
   * messages must go before this batch's (e.g. a unit re-read from scratch after it reappeared).
   */
  apply(agent: AgentId, unit: SourceUnit, batch: ReadBatch, extraResets: string[] = []): ApplyResult {
    return this.applyTx(agent, unit, batch, extraResets);
  }

  /** Records that `unit` was read to its end at this size/mtime, so an unchanged unit is skipped. */
  markSynced(agent: AgentId, unit: SourceUnit): void {
    this.stmts.markSynced.run({ key: unit.key, agent, path: unit.path, size: unit.size, mtime: unit.mtimeMs, now: new Date().toISOString() });
  }

  /** A unit vanished from its store: keep its sessions (marked gone) and forget its cursor. */
  unitGone(key: string): string[] {
    return this.db.transaction(() => {
      const ids = this.stmts.goneByUnit.all(key) as string[];
      this.stmts.deleteUnit.run(key);
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

  private applyInTx(agent: AgentId, unit: SourceUnit, batch: ReadBatch, extraResets: string[]): ApplyResult {
    const touched = new Set<string>();
    for (const s of batch.sessions) {
      const rowid = this.stmts.upsertSession.get(sessionParams(s, unit.key)) as number;
      this.remember(s.id, rowid);
      touched.add(s.id);
    }
    for (const id of new Set([...extraResets, ...batch.resetSessions])) {
      const rowid = this.stmts.sessionRowid.get(id) as number | undefined;
      if (rowid !== undefined) this.stmts.resetMessages.run(messageRowId(rowid, 0), messageRowId(rowid + 1, 0));
      touched.add(id);
    }
    let messagesWritten = 0;
    for (const m of batch.messages) {
      if (!Number.isInteger(m.seq) || m.seq < 0 || m.seq >= SEQ_SPAN) continue;
      const rowid = this.rowidFor(m.sessionId, agent, unit.key);
      const r = this.stmts.upsertMessage.run({
        id: messageRowId(rowid, m.seq),
        role: m.role,
        kind: m.kind,
        text: capText(m.text ?? '', m.kind),
        toolName: m.toolName,
        toolCallId: m.toolCallId,
        isError: m.isError ? 1 : 0,
        timestamp: m.timestamp,
        nativeId: m.nativeId,
      });
      messagesWritten += r.changes;
      touched.add(m.sessionId);
    }
    for (const id of batch.goneSessions) {
      this.stmts.goneById.run(id);
      touched.add(id);
    }
    this.stmts.saveCursor.run({
      key: unit.key,
      agent,
      path: unit.path,
      cursor: JSON.stringify(batch.cursor ?? null),
      bytes: batch.bytesRead,
      now: new Date().toISOString(),
    });
    return { sessionsWritten: batch.sessions.length, messagesWritten, sessionIds: [...touched] };
  }
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
    sourcePath: s.sourcePath,
    bytes: s.bytes,
    sourceGone: s.sourceGone ? 1 : 0,
    unitKey,
  };
}
