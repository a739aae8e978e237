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
  /** Share of the room in use from which the worker prepares the FTS texts itself (see read-ahead-worker.ts). */
  formsAheadAt: number;
  /**
   * BigInt64s both threads keep current (see FLOW): batches and bytes read the writer applied (or
   * dropped), and batches the worker posted. Acks arrive as messages, which a worker busy parsing
   * reads only when it next waits; these counts are current at any moment.
   */
  flow: SharedArrayBuffer;
  /**
   * One Int8 per item: who reads it (see CLAIM). The worker takes items in order; the writer takes
   * the one it is at when the worker has nothing ready for it (typically while the worker starts).
   */
  claims: SharedArrayBuffer;
}

/** Slots of ReadAheadInit.flow. */
export const FLOW = { applied: 0, appliedBytes: 1, posted: 2, length: 3 } as const;
/** Values of ReadAheadInit.claims. */
export const CLAIM = { none: 0, worker: 1, writer: 2 } as const;

/** `ack`: one more batch was applied or dropped (wakes a worker waiting for room; see `applied`); `stop`: abandon the run. */
export type ToReadAhead = { type: 'ack' } | { type: 'stop' };

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
