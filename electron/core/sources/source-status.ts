/**
 * The one bookkeeping behind `SourceAdapter.status()`, for every local adapter (JSONL and SQLite
 * stores): which roots exist, how many sessions/messages were delivered, skipped lines, the last
 * error and a capped list of diagnostics. Per-unit errors are tracked separately so one broken
 * database does not mark the whole source unreadable while another store of the agent reads fine.
 */
import fs from 'node:fs';
import type { AgentId, Diagnostic, SourceState, SourceStatus } from '../../../shared/model.js';
import type { ReadContext } from './types.js';

const MAX_DIAGNOSTICS = 100;

export class SourceStatusTracker {
  /** What the last listing found (stores that walk their roots); until then, whether a root exists. */
  private listedState: SourceState | null = null;
  private lastError: string | null = null;
  private lastReadAt: string | null = null;
  private skippedLines = 0;
  private messages = 0;
  private readonly sessions = new Set<string>();
  private readonly filesRead = new Set<string>();
  /** unit key → error of its last read (absent when the last read succeeded). */
  private readonly unitErrors = new Map<string, string>();
  private readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly agent: AgentId,
    private readonly roots: () => readonly string[],
  ) {}

  /** A listing's verdict on the roots: some store found, else unreadable (and why) or not found. */
  listed(found: boolean, unreadable: string | null): void {
    this.listedState = found ? 'ok' : unreadable ? 'unreadable' : 'not_found';
    if (!found && unreadable) this.lastError = unreadable;
  }

  /** Keeps `d` among the recent diagnostics and passes it to the read that met it, if any. */
  diagnostic(d: Omit<Diagnostic, 'at'>, ctx?: ReadContext): void {
    this.diagnostics.push({ ...d, at: new Date().toISOString() });
    if (this.diagnostics.length > MAX_DIAGNOSTICS) this.diagnostics.splice(0, this.diagnostics.length - MAX_DIAGNOSTICS);
    ctx?.diagnostic(d);
  }

  /** A diagnostic that is also the source's last error. */
  error(d: Omit<Diagnostic, 'at'>, ctx?: ReadContext): void {
    this.lastError = d.line ? `${d.file}:${d.line}: ${d.message}` : `${d.file}: ${d.message}`;
    this.diagnostic(d, ctx);
  }

  skippedLine(): void {
    this.skippedLines++;
  }

  /** A unit was opened for reading (counted once however often it is read). */
  unitOpened(unitKey: string): void {
    this.filesRead.add(unitKey);
  }

  /** A batch of `unitKey` was delivered: its sessions and messages count, and the unit reads again. */
  unitRead(unitKey: string, sessionIds: Iterable<string>, messages: number): void {
    this.unitErrors.delete(unitKey);
    this.filesRead.add(unitKey);
    for (const id of sessionIds) this.sessions.add(id);
    this.messages += messages;
    this.lastReadAt = new Date().toISOString();
  }

  /** The whole unit could not be read; the source is unreadable when every unit it tried failed. */
  unitFailed(unitKey: string, message: string): void {
    this.unitErrors.set(unitKey, message);
    this.lastError = message;
  }

  sessionsGone(ids: Iterable<string>): void {
    for (const id of ids) this.sessions.delete(id);
  }

  status(): SourceStatus {
    const roots = [...this.roots()];
    const units = new Set([...this.filesRead, ...this.unitErrors.keys()]);
    const allFailed = units.size > 0 && [...units].every((u) => this.unitErrors.has(u));
    const state = this.listedState ?? (roots.some((r) => fs.existsSync(r)) ? 'ok' : 'not_found');
    return {
      agent: this.agent,
      state: state === 'ok' && allFailed ? 'unreadable' : state,
      roots,
      sessions: this.sessions.size,
      messages: this.messages,
      filesRead: [...this.filesRead].filter((u) => !this.unitErrors.has(u)).length,
      skippedLines: this.skippedLines,
      lastError: this.lastError,
      lastReadAt: this.lastReadAt,
      diagnostics: [...this.diagnostics],
    };
  }
}
