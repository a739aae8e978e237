/**
 * Test support for adapters that save their cursor only every few batches: apply batches as the
 * index does (resets first, then messages keyed by session and seq, so a message delivered again
 * changes nothing) and replay a crash after every batch — the index holds the batches up to it and
 * the last cursor among them — then read on from that cursor. Each replay must end where one
 * uninterrupted read ends.
 */
import type { JsonValue, ReadBatch, SourceAdapter, SourceUnit } from '../electron/core/sources/types.js';
import { readUnit } from './read-unit.js';

class BatchSink {
  private readonly messages = new Map<string, Map<number, string>>();
  private readonly titles = new Map<string, string | null>();
  private readonly gone = new Set<string>();
  /** Sessions reset so far in this pass, when it started from no cursor (as the index does then). */
  private firstSight: Set<string> | null = null;

  startPass(cursor: JsonValue | null): void {
    this.firstSight = cursor === null ? new Set() : null;
  }

  apply(b: ReadBatch): void {
    const resets = new Set(b.resetSessions);
    if (this.firstSight) {
      for (const id of [...b.sessions.map((s) => s.id), ...b.messages.map((m) => m.sessionId)]) {
        if (!this.firstSight.has(id)) resets.add(id);
        this.firstSight.add(id);
      }
    }
    for (const s of b.sessions) this.titles.set(s.id, s.title);
    for (const id of resets) this.messages.delete(id);
    for (const m of b.messages) {
      let rows = this.messages.get(m.sessionId);
      if (!rows) this.messages.set(m.sessionId, (rows = new Map()));
      rows.set(m.seq, `${m.role}:${m.kind}:${m.text}`);
    }
    for (const id of b.goneSessions) this.gone.add(id);
  }

  snapshot(): string[] {
    const out: string[] = [];
    for (const [id, rows] of this.messages) for (const [seq, text] of rows) out.push(`${id}#${seq} ${text}`);
    for (const [id, title] of this.titles) out.push(`${id} title=${String(title)}`);
    for (const id of this.gone) out.push(`${id} gone`);
    return out.sort();
  }
}

export interface ResumeReport {
  batches: ReadBatch[];
  /** What one uninterrupted read leaves in the index. */
  reference: string[];
  /** What each crash-and-resume leaves, one per batch the crash came after. */
  resumed: string[][];
}

export async function replayCrashes(adapter: SourceAdapter, unit: SourceUnit, start: JsonValue | null = null): Promise<ResumeReport> {
  const full = await readUnit(adapter, unit, start);
  const reference = new BatchSink();
  reference.startPass(start);
  for (const b of full.batches) reference.apply(b);
  const resumed: string[][] = [];
  for (let crashAfter = 0; crashAfter < full.batches.length - 1; crashAfter++) {
    const sink = new BatchSink();
    sink.startPass(start);
    let cursor = start;
    for (const b of full.batches.slice(0, crashAfter + 1)) {
      sink.apply(b);
      if (b.cursor !== undefined) cursor = b.cursor;
    }
    sink.startPass(cursor);
    for (const b of (await readUnit(adapter, unit, cursor)).batches) sink.apply(b);
    resumed.push(sink.snapshot());
  }
  return { batches: full.batches, reference: reference.snapshot(), resumed };
}
