/**
 * Adapters count what they read (`status()`: sessions, messages, files, skipped lines, errors). When
 * a big sync is parsed in the read-ahead worker, the worker's adapter instances did that reading, so
 * the writer-side adapters never see it. This keeps the difference: messages, sessions and the last
 * read time from the batches applied (exact even if the worker dies), files read, skipped lines,
 * the last error and adapter-only diagnostics from the worker's end-of-run status. Agents never
 * read ahead report their adapter's status unchanged.
 */
import type { AgentId, SourceStatus } from '../../../shared/model.js';
import type { ReadBatch } from '../sources/types.js';

const MAX_DIAGNOSTICS = 50;

/** The part of a SourceStatus the worker's adapters counted. */
type Remote = Pick<SourceStatus, 'messages' | 'filesRead' | 'skippedLines' | 'lastError' | 'lastReadAt' | 'diagnostics'>;

export class ReadAheadStatus {
  /** Sessions delivered per agent, whichever thread read them (what an adapter's own count means). */
  private readonly sessions = new Map<AgentId, Set<string>>();
  private readonly remote = new Map<AgentId, Remote>();

  /** After each applied batch; `remote` when the read-ahead worker parsed it. */
  noteApplied(agent: AgentId, batch: ReadBatch, remote: boolean): void {
    let ids = this.sessions.get(agent);
    if (!ids) this.sessions.set(agent, (ids = new Set()));
    for (const s of batch.sessions) ids.add(s.id);
    for (const id of batch.goneSessions) ids.delete(id);
    if (!remote) return;
    const r = this.remoteOf(agent);
    r.messages += batch.messages.length;
    r.lastReadAt = new Date().toISOString();
  }

  /** The worker adapters' status at the end of a run (their counters start at zero each run). */
  addWorkerStatus(list: SourceStatus[]): void {
    for (const s of list) {
      const r = this.remoteOf(s.agent);
      r.filesRead += s.filesRead;
      r.skippedLines += s.skippedLines;
      r.lastError = s.lastError ?? r.lastError;
      r.diagnostics = [...r.diagnostics, ...s.diagnostics].slice(-MAX_DIAGNOSTICS);
    }
  }

  /** `own` (the writer-side adapter's status) plus what was read on its behalf in the worker. */
  merge(own: SourceStatus): SourceStatus {
    const r = this.remote.get(own.agent);
    if (!r) return own;
    const diagnostics = [...r.diagnostics, ...own.diagnostics].sort((a, b) => a.at.localeCompare(b.at));
    return {
      ...own,
      sessions: Math.max(own.sessions, this.sessions.get(own.agent)?.size ?? 0),
      messages: own.messages + r.messages,
      filesRead: own.filesRead + r.filesRead,
      skippedLines: own.skippedLines + r.skippedLines,
      lastError: own.lastError ?? r.lastError,
      lastReadAt: latest(own.lastReadAt, r.lastReadAt),
      diagnostics: diagnostics.slice(-MAX_DIAGNOSTICS),
    };
  }

  private remoteOf(agent: AgentId): Remote {
    let r = this.remote.get(agent);
    if (!r) this.remote.set(agent, (r = { messages: 0, filesRead: 0, skippedLines: 0, lastError: null, lastReadAt: null, diagnostics: [] }));
    return r;
  }
}

function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}
