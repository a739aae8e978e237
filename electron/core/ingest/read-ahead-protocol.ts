/** Messages between the thread that writes the index (ReadAhead) and the read-ahead worker. */
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { JsonValue, SourceUnit } from '../sources/types.js';
import type { AdapterSource } from './worker-launch.js';
import type { PackedBatch } from './batch-pack.js';

/** One unit to read, from the cursor the index holds for it. */
export interface ReadAheadItem {
  agent: AgentId;
  unit: SourceUnit;
  cursor: JsonValue | null;
  /**
   * A unit the worker skips and the writer's thread reads: another machine's (over SSH), or one whose
   * adapter reads with what its own listing learned (SourceAdapter.readsListingState).
   */
  remote?: boolean;
}

export interface ReadAheadInit extends AdapterSource {
  /** Units in the order the writer applies them. */
  items: ReadAheadItem[];
  /** Batches posted but not yet acknowledged (applied) before the worker pauses. */
  maxInFlight: number;
  /** The same cap on their `bytesRead` total (one batch always goes, whatever its size). */
  maxInFlightBytes: number;
}

/** `ack`: one more batch (of `bytes` read) was applied or dropped; `stop`: abandon the run. */
export type ToReadAhead = { type: 'ack'; bytes: number } | { type: 'stop' };

/** `index` is the item's position in `items`; a unit's messages arrive in order, units in order. */
export type FromReadAhead =
  /** A batch with its FTS texts prepared (see batch-pack.ts for why it travels packed). */
  | { type: 'batch'; index: number; batch: PackedBatch }
  | { type: 'diagnostic'; index: number; diagnostic: Omit<Diagnostic, 'at'> }
  /** The unit was read to its end. */
  | { type: 'end'; index: number }
  /** The adapter's read threw: the unit fails exactly as an in-thread read would. */
  | { type: 'error'; index: number; message: string }
  /** The worker has no adapter for the item's agent: the writer reads it itself. */
  | { type: 'skip'; index: number }
  /** After the last item: the worker adapters' own status (filesRead, skipped lines, errors…). */
  | { type: 'status'; status: SourceStatus[] }
  | { type: 'fatal'; message: string };
