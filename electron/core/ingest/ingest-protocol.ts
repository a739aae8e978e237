/** Messages between the main thread (IngestRunner) and the ingest worker (ingest-worker.ts). */
import type { IndexProgress } from '../../../shared/api-types.js';
import type { SourceStatus } from '../../../shared/model.js';
import type { SyncCounters } from './store-sync.js';

export interface IngestWorkerInit {
  dataDir: string;
  /** File URL of a module exporting `createAdapters(...adapterArgs): SourceAdapter[]`. */
  adapterModule: string;
  /** Structured-cloneable arguments for `createAdapters` (settings-like config, environment). */
  adapterArgs: unknown[];
  watch: boolean;
  reconcileMs?: number;
  debounceMs?: number;
}

export type ToWorker = { type: 'sync'; id: number } | { type: 'status'; id: number } | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; progress: IndexProgress }
  | { type: 'sessions-changed'; sessionIds: string[] }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** The first pass is done; its work counters. */
  | { type: 'current'; counters: SyncCounters }
  | { type: 'synced'; id: number; counters: SyncCounters }
  | { type: 'status'; id: number; status: SourceStatus[] }
  | { type: 'fatal'; message: string }
  | { type: 'stopped' };
