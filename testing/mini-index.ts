/**
 * Test support: a tiny stand-in for the index that applies an adapter's batches the way the real
 * one must (resets first, messages appended in seq order) and keeps each unit's cursor between reads.
 */
import { expect } from 'vitest';
import type { Diagnostic, Message, Session } from '../shared/model.js';
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../electron/core/sources/types.js';
import { readUnit } from './read-unit.js';

export class MiniIndex {
  sessions = new Map<string, Session>();
  messages = new Map<string, Message[]>();
  cursors = new Map<string, JsonValue>();
  diagnostics: Omit<Diagnostic, 'at'>[] = [];

  async read(adapter: SourceAdapter, unit: SourceUnit): Promise<ReadBatch[]> {
    const { batches, diagnostics, cursor } = await readUnit(adapter, unit, this.cursors.get(unit.key) ?? null);
    this.diagnostics.push(...diagnostics);
    for (const b of batches) {
      for (const id of b.resetSessions) this.messages.delete(id);
      for (const s of b.sessions) this.sessions.set(s.id, s);
      for (const m of b.messages) {
        const list = this.messages.get(m.sessionId) ?? [];
        expect(m.seq).toBe(list.length); // seq continues exactly where the stored rows end
        list.push(m);
        this.messages.set(m.sessionId, list);
      }
    }
    if (cursor !== null) this.cursors.set(unit.key, cursor);
    return batches;
  }

  async readAll(adapter: SourceAdapter): Promise<void> {
    for (const unit of await adapter.listUnits()) await this.read(adapter, unit);
  }
}
