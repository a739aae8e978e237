/**
 * Bookkeeping behind `SourceAdapter.status()` for the SQLite-backed adapters (OpenCode, Hermes):
 * which roots exist, how many sessions/messages were delivered, the last error and a capped list of
 * diagnostics. Per-unit errors are tracked separately so one broken database does not mark the
 * whole source unreadable while another store of the same agent reads fine.
 */
import fs from 'node:fs';
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';

const MAX_DIAGNOSTICS = 50;

export class SourceStatusTracker {
  private readonly sessions = new Set<string>();
  private messages = 0;
  private readonly filesRead = new Set<string>();
  private lastError: string | null = null;
  private lastReadAt: string | null = null;
  private readonly diagnostics: Diagnostic[] = [];
  /** unit key → error of its last read (absent when the last read succeeded). */
  private readonly unitErrors = new Map<string, string>();

  constructor(
    private readonly agent: AgentId,
    private readonly roots: () => string[],
  ) {}

  diagnostic(d: Omit<Diagnostic, 'at'>): Diagnostic {
    const full: Diagnostic = { ...d, at: new Date().toISOString() };
    this.diagnostics.push(full);
    if (this.diagnostics.length > MAX_DIAGNOSTICS) this.diagnostics.splice(0, this.diagnostics.length - MAX_DIAGNOSTICS);
    return full;
  }

  unitFailed(unitKey: string, message: string): void {
    this.unitErrors.set(unitKey, message);
    this.lastError = message;
  }

  unitRead(unitKey: string, sessionIds: Iterable<string>, messages: number): void {
    this.unitErrors.delete(unitKey);
    this.filesRead.add(unitKey);
    for (const id of sessionIds) this.sessions.add(id);
    this.messages += messages;
    this.lastReadAt = new Date().toISOString();
  }

  sessionsGone(ids: Iterable<string>): void {
    for (const id of ids) this.sessions.delete(id);
  }

  status(): SourceStatus {
    const roots = this.roots();
    const found = roots.some((r) => fs.existsSync(r));
    const units = new Set([...this.filesRead, ...this.unitErrors.keys()]);
    const allFailed = units.size > 0 && [...units].every((u) => this.unitErrors.has(u));
    return {
      agent: this.agent,
      state: !found ? 'not_found' : allFailed ? 'unreadable' : 'ok',
      roots,
      sessions: this.sessions.size,
      messages: this.messages,
      filesRead: [...this.filesRead].filter((u) => !this.unitErrors.has(u)).length,
      skippedLines: 0,
      lastError: this.lastError,
      lastReadAt: this.lastReadAt,
      diagnostics: [...this.diagnostics],
    };
  }
}
