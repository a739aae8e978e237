/**
 * The index as the rest of Baton sees it: a SessionIndex for reads on this thread, and ingest
 * (cold index, watching, reconcile) either in a worker thread (the app, `baton serve`) or inline
 * (one-shot CLI commands, tests). Construct with the data dir and how to build the adapters;
 * `start()`, listen for 'progress' and 'sessions-changed', `stop()` on shutdown.
 */
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { IndexProgress } from '../../../shared/api-types.js';
import type { SourceStatus } from '../../../shared/model.js';
import type { SourceAdapter } from '../sources/types.js';
import { openIndexForWriting, type IndexLog } from './index-db.js';
import type { SyncCounters } from './index-sync.js';
import type { FromWorker, IngestWorkerInit, ToWorker } from './ingest-protocol.js';
import { LiveIndex } from './live-index.js';
import { SessionIndex } from './session-index.js';
import { defaultAdapterModule, launchWorker, type AdapterSource } from './worker-launch.js';

export { defaultAdapterModule };

export type IngestMode =
  /** Adapters built inside a worker by `createAdapters(...adapterArgs)` of `adapterModule`. */
  | { kind: 'worker'; adapterModule?: string; adapterArgs: unknown[] }
  /** Adapters already built, ingest on this thread; a big pass parses in a worker built from `readAhead`. */
  | { kind: 'inline'; adapters: SourceAdapter[]; readAhead?: AdapterSource };

export interface IndexServiceOptions {
  dataDir: string;
  ingest: IngestMode;
  /** Keep watching after the first pass. Default true. */
  watch?: boolean;
  reconcileMs?: number;
  debounceMs?: number;
  /** Drop index.db first and rebuild from the stores. */
  rebuild?: boolean;
  log?: IndexLog;
}

export interface IndexServiceEvents {
  progress: [IndexProgress];
  'sessions-changed': [string[]];
}

export class IndexService extends EventEmitter<IndexServiceEvents> {
  private reader: SessionIndex | null = null;
  private live: LiveIndex | null = null;
  private worker: Worker | null = null;
  private state: IndexProgress = { phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, currentAt: null, error: null };
  private current: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (value: unknown) => void>();
  private readonly log: IndexLog;
  private stopping: Promise<void> | null = null;

  constructor(private readonly opts: IndexServiceOptions) {
    super();
    this.log = opts.log ?? (() => {});
  }

  /** The read side. Available as soon as `start()` returned. */
  get index(): SessionIndex {
    if (!this.reader) throw new Error('IndexService not started');
    return this.reader;
  }

  progress(): IndexProgress {
    return { ...this.state };
  }

  /**
   * Prepares index.db (set aside if corrupt, rebuilt if asked), opens the read connection and starts
   * ingest. Returns at once; `whenCurrent()` resolves after the first pass.
   */
  async start(): Promise<void> {
    openIndexForWriting(this.opts.dataDir, { log: this.log, rebuild: this.opts.rebuild }).close();
    this.reader = new SessionIndex(this.opts.dataDir);
    const onProgress = (p: IndexProgress) => {
      this.state = p;
      this.emit('progress', p);
    };
    if (this.opts.ingest.kind === 'inline') {
      const live = new LiveIndex({ ...this.liveOptions(), adapters: this.opts.ingest.adapters, readAhead: this.opts.ingest.readAhead });
      this.live = live;
      live.sync.on('progress', onProgress);
      live.sync.on('sessions-changed', (ids) => this.emit('sessions-changed', ids));
      this.current = live.start();
      this.current.catch((err: unknown) => onProgress({ ...this.state, phase: 'error', error: String(err) }));
      return;
    }
    const worker = launchWorker('ingest-worker', {
      dataDir: this.opts.dataDir,
      adapterModule: this.opts.ingest.adapterModule ?? defaultAdapterModule(),
      adapterArgs: this.opts.ingest.adapterArgs,
      watch: this.opts.watch !== false,
      reconcileMs: this.opts.reconcileMs,
      debounceMs: this.opts.debounceMs,
    } satisfies IngestWorkerInit);
    this.worker = worker;
    this.current = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromWorker) => {
        switch (m.type) {
          case 'progress':
            onProgress(m.progress);
            break;
          case 'sessions-changed':
            this.emit('sessions-changed', m.sessionIds);
            break;
          case 'log':
            this.log(m.level, m.message);
            break;
          case 'current':
            resolve();
            break;
          case 'synced':
            this.pending.get(m.id)?.(m.counters);
            this.pending.delete(m.id);
            break;
          case 'status':
            this.pending.get(m.id)?.(m.status);
            this.pending.delete(m.id);
            break;
          case 'fatal':
            onProgress({ ...this.state, phase: 'error', error: m.message });
            this.log('error', `ingest worker failed: ${m.message}`);
            reject(new Error(m.message));
            break;
          case 'stopped':
            break;
        }
      });
      worker.on('error', (err) => {
        onProgress({ ...this.state, phase: 'error', error: err.message });
        reject(err);
      });
      worker.on('exit', (code) => {
        if (!this.stopping) reject(new Error(`ingest worker exited (code ${code})`));
        for (const done of this.pending.values()) done(null);
        this.pending.clear();
      });
    });
    this.current.catch(() => undefined);
  }

  private liveOptions() {
    return {
      dataDir: this.opts.dataDir,
      watch: this.opts.watch !== false,
      reconcileMs: this.opts.reconcileMs,
      debounceMs: this.opts.debounceMs,
      log: this.log,
    };
  }

  /** Resolves once the first pass is done (the index reflects the stores as of startup). */
  whenCurrent(): Promise<void> {
    if (!this.current) return Promise.reject(new Error('IndexService not started'));
    return this.current;
  }

  /** Runs a full pass now (what the periodic reconcile does) and resolves with its work counters. */
  async syncNow(): Promise<SyncCounters | null> {
    if (this.live) return this.live.sync.syncAll();
    return (await this.request({ type: 'sync', id: 0 })) as SyncCounters | null;
  }

  /** Work counters of inline ingest since start (null when ingest runs in the worker). */
  counters(): SyncCounters | null {
    return this.live ? { ...this.live.sync.counters } : null;
  }

  async sourceStatus(): Promise<SourceStatus[]> {
    if (this.live) return this.live.sync.sourceStatus();
    return ((await this.request({ type: 'status', id: 0 })) as SourceStatus[] | null) ?? [];
  }

  private request(m: Extract<ToWorker, { id: number }>): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ ...m, id });
    });
  }

  /** Stops watching, lets the current batch commit, closes both connections. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.live) await this.live.close();
      const worker = this.worker;
      if (worker) {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ type: 'stop' } satisfies ToWorker);
        const timeout = setTimeout(() => void worker.terminate(), 10_000);
        await exited;
        clearTimeout(timeout);
      }
      this.reader?.close();
    })();
    return this.stopping;
  }
}
