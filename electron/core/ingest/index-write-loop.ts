/**
 * The write side, running wherever ingest runs (normally the ingest worker thread): opens the
 * index for writing, brings it current, then keeps it current from watcher events plus a periodic
 * reconcile that catches missed events, deletions and rows changed in place.
 */
import type { SourceAdapter } from '../sources/types.js';
import type { StoreWatcher } from '../watch/store-watcher.js';
import { openIndexForWriting, type IndexDb, type IndexLog } from '../index/index-db.js';
import { StoreSync } from './store-sync.js';
import { IndexWriter } from '../index/index-writer.js';
import type { ReadAheadOptions } from './read-ahead.js';

export interface IndexWriteLoopOptions {
  dataDir: string;
  adapters: SourceAdapter[];
  log?: IndexLog;
  /** Keep watching after the first pass (false: one pass, as the CLI does). Default true. */
  watch?: boolean;
  /** Full re-list of every store this often (ms). Default 60 s. */
  reconcileMs?: number;
  /** Per-file debounce of watcher events (ms). */
  debounceMs?: number;
  /** Drop the index and rebuild from scratch. */
  rebuild?: boolean;
  /** When a cold index / full sync commits its group transaction (default ~30k messages or 32 MB read). */
  groupCommit?: { messages: number; bytes: number };
  /**
   * How a worker thread builds the same adapters (registry module + plain args): a big full sync
   * (≥ `minBytes`, default 32 MB changed) is then parsed there while this thread writes.
   * Without it every read runs on this thread.
   */
  readAhead?: ReadAheadOptions;
  /** FTS compaction follows a pass that wrote at least this many messages (see StoreSync). */
  compactAfterMessages?: number;
  /** A write connection openIndexForWriting already prepared on this thread (not opened and checked twice). */
  db?: IndexDb;
}

export class IndexWriteLoop {
  readonly db: IndexDb;
  readonly writer: IndexWriter;
  readonly sync: StoreSync;
  private watcher: StoreWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly unsubscribers: (() => void)[] = [];
  private readonly log: IndexLog;

  constructor(private readonly opts: IndexWriteLoopOptions) {
    this.log = opts.log ?? (() => {});
    this.db = opts.db ?? openIndexForWriting(opts.dataDir, { log: this.log, rebuild: opts.rebuild });
    this.writer = new IndexWriter(this.db, opts.groupCommit);
    this.sync = new StoreSync(this.writer, opts.adapters, this.log, {
      readAhead: opts.readAhead,
      compactAfterMessages: opts.compactAfterMessages,
      // One pass and out (the CLI): the merge is left to the next process that keeps running.
      deferCompaction: opts.watch === false,
    });
  }

  /** First pass (cold index or catch-up), then watching. Resolves when the index is current. */
  async start(): Promise<void> {
    const watching = this.opts.watch !== false;
    if (watching) {
      // Start watching before the first pass so nothing written during it is missed.
      const roots = this.opts.adapters.flatMap((a) => a.watchRoots?.() ?? a.roots());
      // Only remote sources (no local roots): nothing to watch here, and chokidar never gets ready.
      if (roots.length) {
        // Loaded only to watch: a one-pass CLI command never pays for chokidar.
        const { StoreWatcher } = await import('../watch/store-watcher.js');
        this.watcher = new StoreWatcher(roots, {
          debounceMs: this.opts.debounceMs,
          onChange: (paths) => void this.sync.syncPaths(paths).catch((err) => this.log('error', `sync failed: ${String(err)}`)),
          onError: (err) => this.log('warn', `watcher: ${err.message}`),
        });
        await this.watcher.start();
      }
      // Stores no local watcher sees (remote hosts) push their own change notices.
      for (const adapter of this.opts.adapters) {
        const unsubscribe = adapter.subscribe?.(
          () => void this.sync.syncAdapters([adapter]).catch((err) => this.log('error', `sync failed: ${String(err)}`)),
        );
        if (unsubscribe) this.unsubscribers.push(unsubscribe);
      }
    }
    await this.sync.syncAll();
    if (this.closed) return;
    if (watching) {
      this.sync.setPhase('watching');
      this.sync.compactIfDue();
      const every = this.opts.reconcileMs ?? 60_000;
      this.timer = setInterval(() => void this.reconcile(), every);
      this.timer.unref?.();
    }
  }

  /** Re-lists every store and reads whatever changed; also picks up store roots created since. */
  async reconcile(): Promise<void> {
    if (this.closed) return;
    this.watcher?.refreshRoots();
    try {
      await this.sync.syncAll();
    } catch (err) {
      this.log('error', `reconcile failed: ${String(err)}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.sync.stop();
    await this.watcher?.close();
    await this.sync.syncPaths([]).catch(() => undefined); // wait for the queue to drain
    for (const adapter of this.opts.adapters) adapter.close?.();
    this.db.close();
  }
}
