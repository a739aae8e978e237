/**
 * Cutting normalized sessions into bounded ReadBatches. Sessions are queued whole; `drain` takes up
 * to `limit` messages from the front, splitting a large session across batches (only its first
 * chunk carries the reset). A session's `onDelivered` runs when its last message has been drained,
 * so the cursor built right after a drain says exactly what the batch completed.
 */
import type { Message, Session, UsageEvent } from '../../../shared/model.js';
import type { JsonValue, ReadBatch } from './types.js';

export const MAX_BATCH_MESSAGES = 2000;

export interface SessionDelivery {
  session: Session;
  messages: Message[];
  /** Drop the session's stored messages before inserting these (full re-delivery). */
  reset: boolean;
  /** Per-request records (a limit hit) delivered with the session's first chunk. */
  usage?: UsageEvent[];
  onDelivered?: () => void;
}

interface Entry extends SessionDelivery {
  offset: number;
}

export type DrainedBatch = Omit<ReadBatch, 'cursor'>;

export class BatchAccumulator {
  private readonly entries: Entry[] = [];
  private gone: string[] = [];
  private bytes = 0;
  private queued = 0;

  constructor(readonly limit = MAX_BATCH_MESSAGES) {}

  push(delivery: SessionDelivery): void {
    this.entries.push({ ...delivery, offset: 0 });
    this.queued += delivery.messages.length;
  }

  addGone(ids: Iterable<string>): void {
    for (const id of ids) if (!this.gone.includes(id)) this.gone.push(id);
  }

  addBytes(n: number): void {
    this.bytes += n;
  }

  /** Queued messages not drained yet. */
  get pendingMessages(): number {
    return this.queued;
  }

  get isEmpty(): boolean {
    return this.entries.length === 0 && this.gone.length === 0;
  }

  /** Whether a full batch is ready. */
  get full(): boolean {
    return this.queued >= this.limit;
  }

  drain(): DrainedBatch {
    const sessions: Session[] = [];
    const messages: Message[] = [];
    const resetSessions: string[] = [];
    const usage: UsageEvent[] = [];
    let room = this.limit;
    while (this.entries.length > 0) {
      const entry = this.entries[0]!;
      const remaining = entry.messages.length - entry.offset;
      if (room <= 0 && (remaining > 0 || sessions.length > 0)) break;
      const take = Math.min(room, remaining);
      if (entry.offset === 0 && entry.reset) resetSessions.push(entry.session.id);
      if (entry.offset === 0 && entry.usage) usage.push(...entry.usage);
      sessions.push(entry.session);
      for (let i = 0; i < take; i++) messages.push(entry.messages[entry.offset + i]!);
      entry.offset += take;
      room -= take;
      this.queued -= take;
      if (entry.offset < entry.messages.length) break;
      this.entries.shift();
      entry.onDelivered?.();
    }
    const batch: DrainedBatch = { sessions, messages, resetSessions, goneSessions: this.gone, bytesRead: this.bytes, ...(usage.length ? { usage } : {}) };
    this.gone = [];
    this.bytes = 0;
    return batch;
  }
}

/**
 * When a store's cursor is a whole-state snapshot (SQLite stores: an entry per session), saving it
 * with every batch makes a big read quadratic: 100k sessions would write a 5 MB cursor with each of
 * 500 batches. A batch carries the cursor only once the messages delivered since the last one
 * saved reach `ratio` times its entry count (so at most 1/ratio entry is written per message), and
 * the last batch always. A crash in between re-reads at most that many messages (seconds of work),
 * which the index takes as no change.
 */
export class CursorCadence {
  private since = 0;

  constructor(private readonly ratio = 4) {}

  /** Counts a batch's messages; true when this batch should carry a cursor of `entries` entries. */
  due(messages: number, entries: number): boolean {
    this.since += messages;
    if (this.since < entries * this.ratio) return false;
    this.since = 0;
    return true;
  }
}

/**
 * Batches of a store whose cursor is a whole-state snapshot: drains `acc`, attaching the cursor at
 * the CursorCadence and always to the batch that ends the read. `cursorAt(done)`: the cursor after
 * the batches so far (`done`: after the whole read); `entries()`: its entry count now.
 */
export class SnapshotBatches {
  private readonly cadence = new CursorCadence();
  private finalSaved = false;
  private yielded = false;

  constructor(
    private readonly acc: BatchAccumulator,
    private readonly cursorAt: (done: boolean) => JsonValue,
    private readonly entries: () => number,
    private readonly onBatch: (batch: ReadBatch) => void,
  ) {}

  /** Whether a full batch is ready (take it with `next(false)`). */
  get full(): boolean {
    return this.acc.full;
  }

  /** The next batch. `last`: nothing more will be queued, so the batch that empties the accumulator saves the final cursor. */
  next(last: boolean): ReadBatch {
    const batch: ReadBatch = this.acc.drain();
    const done = last && this.acc.isEmpty;
    if (done || this.cadence.due(batch.messages.length, this.entries())) batch.cursor = this.cursorAt(done);
    this.finalSaved ||= done;
    this.yielded = true;
    this.onBatch(batch);
    return batch;
  }

  /** The remaining batches once nothing more will be queued; an empty one if only the cursor changed. */
  *rest(start: JsonValue | null): Generator<ReadBatch> {
    while (!this.acc.isEmpty) yield this.next(true);
    if (!this.finalSaved && (this.yielded || JSON.stringify(this.cursorAt(true)) !== JSON.stringify(start))) yield this.next(true);
  }
}
