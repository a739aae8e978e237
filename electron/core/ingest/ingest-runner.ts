/**
 * Runs ingest and offers the reads: a SessionIndex for reads on this thread, and ingest
 * (cold index, watching, reconcile) either in a worker thread (the app, `baton serve`) or inline
 * (one-shot CLI commands, tests). Construct with the data dir and how to build the adapters;
 * `start()`, listen for 'progress' and 'sessions-changed', `stop()` on shutdown.
 */
import { EventEmitter } from 'node:events';
import type { IndexProgress } from '../../../shared/api-types.js';
import type { SourceStatus } from '../../../shared/model.js';
import type { SourceAdapter } from '../sources/types.js';
import { openIndexForWriting, type IndexLog } from '../index/index-db.js';
import type { SyncCounters } from './store-sync.js';
import { IngestSupervisor, type RestartPolicy } from './ingest-supervisor.js';
import { IndexWriteLoop } from './index-write-loop.js';
import { SessionIndex } from '../index/session-index.js';
import { defaultAdapterModule, type AdapterSource } from './worker-launch.js';

export { defaultAdapterModule };

export type IngestMode =
  /** Adapters built inside a worker by `createAdapters(...adapterArgs)` of `adapterModule`. */
  | { kind: 'worker'; adapterModule?: string; adapterArgs: unknown[] }
  /** Adapters already built, ingest on this thread; a big pass parses in a worker built from `readAhead`. */
  | { kind: 'inline'; adapters: SourceAdapter[]; readAhead?: AdapterSource };

export interface IngestRunnerOptions {
  dataDir: string;
  ingest: IngestMode;
  /** Keep watching after the first pass. Default true. */
  watch?: boolean;
  reconcileMs?: number;
  debounceMs?: number;
  /** Drop index.db first and rebuild from the stores. */
  rebuild?: boolean;
  log?: IndexLog;
  /** Worker mode: when and how often a dead ingest worker is restarted (tests shorten it). */
  restartPolicy?: RestartPolicy;
  /** Worker mode: the ingest worker's V8 old-space cap. */
  workerHeapMb?: number;
}

export interface IngestRunnerEvents {
  progress: [IndexProgress];
  'sessions-changed': [string[]];
}

export class IngestRunner extends EventEmitter<IngestRunnerEvents> {
  private reader: SessionIndex | null = null;
  private live: IndexWriteLoop | null = null;
  private supervisor: IngestSupervisor | null = null;
  /** Worker mode: the counters the worker reported with its first pass. */
  private workerCounters: SyncCounters | null = null;
  private state: IndexProgress = { phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, currentAt: null, error: null };
  private current: Promise<void> | null = null;
  private readonly log: IndexLog;
  private stopping: Promise<void> | null = null;

  constructor(private readonly opts: IngestRunnerOptions) {
    super();
    this.log = opts.log ?? (() => {});
  }

  /** The read side. Available as soon as `start()` returned. */
  get index(): SessionIndex {
    if (!this.reader) throw new Error('IngestRunner not started');
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
    const prepared = openIndexForWriting(this.opts.dataDir, { log: this.log, rebuild: this.opts.rebuild });
    // Inline, this thread writes: keep the checked connection. A worker opens its own.
    if (this.opts.ingest.kind !== 'inline') prepared.close();
    this.reader = new SessionIndex(this.opts.dataDir);
    const onProgress = (p: IndexProgress) => {
      this.state = p;
      this.emit('progress', p);
    };
    if (this.opts.ingest.kind === 'inline') {
      const live = new IndexWriteLoop({ ...this.liveOptions(), adapters: this.opts.ingest.adapters, readAhead: this.opts.ingest.readAhead, db: prepared });
      this.live = live;
      live.sync.on('progress', onProgress);
      live.sync.on('sessions-changed', (ids) => this.emit('sessions-changed', ids));
      this.current = live.start();
      this.current.catch((err: unknown) => onProgress({ ...this.state, phase: 'error', error: String(err) }));
      return;
    }
    const supervisor = new IngestSupervisor(
      {
        dataDir: this.opts.dataDir,
        adapterModule: this.opts.ingest.adapterModule ?? defaultAdapterModule(),
        adapterArgs: this.opts.ingest.adapterArgs,
        watch: this.opts.watch !== false,
        reconcileMs: this.opts.reconcileMs,
        debounceMs: this.opts.debounceMs,
      },
      this.opts.restartPolicy,
      this.opts.workerHeapMb,
    );
    this.supervisor = supervisor;
    this.current = new Promise<void>((resolve, reject) => {
      supervisor.on('message', (m) => {
        if (m.type === 'progress') onProgress(m.progress);
        else if (m.type === 'sessions-changed') this.emit('sessions-changed', m.sessionIds);
        else if (m.type === 'log') this.log(m.level, m.message);
        else if (m.type === 'current') {
          this.workerCounters = m.counters;
          resolve();
        }
      });
      supervisor.on('failed', (reason, retryInMs, failures) => {
        const error =
          retryInMs === null
            ? `ingest worker failed ${failures} times in a row, gave up (restart Baton to try again); last: ${reason}`
            : `ingest worker stopped (${reason}); restarting in ${Math.ceil(retryInMs / 1000)} s`;
        this.log(retryInMs === null ? 'error' : 'warn', error);
        const { retryAt: _previous, ...state } = this.state;
        const retry = retryInMs === null ? {} : { retryAt: new Date(Date.now() + retryInMs).toISOString() };
        onProgress({ ...state, phase: 'error', error, ...retry });
        if (retryInMs === null) reject(new Error(error));
      });
    });
    this.current.catch(() => undefined);
    supervisor.start();
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

  /**
   * Resolves once the first pass is done (the index reflects the stores as of startup), by a
   * restarted worker if the first one died; rejects if the worker could not be kept running.
   */
  whenCurrent(): Promise<void> {
    if (!this.current) return Promise.reject(new Error('IngestRunner not started'));
    return this.current;
  }

  /** Runs a full pass now (what the periodic reconcile does) and resolves with its work counters. */
  async syncNow(): Promise<SyncCounters | null> {
    if (this.live) return this.live.sync.syncAll();
    return ((await this.supervisor?.request({ type: 'sync', id: 0 })) ?? null) as SyncCounters | null;
  }

  /** Work counters since start: inline, live; in a worker, as of its first pass. */
  counters(): SyncCounters | null {
    if (this.live) return { ...this.live.sync.counters };
    return this.workerCounters ? { ...this.workerCounters } : null;
  }

  async sourceStatus(): Promise<SourceStatus[]> {
    if (this.live) return this.live.sync.sourceStatus();
    return ((await this.supervisor?.request({ type: 'status', id: 0 })) ?? []) as SourceStatus[];
  }

  /** Stops watching, lets the current batch commit, closes both connections. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.live) await this.live.close();
      await this.supervisor?.stop();
      this.reader?.close();
    })();
    return this.stopping;
  }
}
