/**
 * Watches the agents' store roots and reports changed files, debounced per file so a burst of
 * appends (Claude writes line by line) becomes one read. Events are only hints: whoever consumes
 * them re-stats and reads from its saved cursor, and a periodic reconcile catches anything missed.
 * Roots that do not exist yet are waited for (root-arrivals.ts) and watched from the moment they
 * appear; `refreshRoots()` (called from the reconcile) checks them again in case an event was lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { RootArrivals } from './root-arrivals.js';

export interface StoreWatcherOptions {
  /** Quiet time per file before its change is reported (never less than MIN_DEBOUNCE_MS). */
  debounceMs?: number;
  /** Directory levels below a root to watch (Codex nests YYYY/MM/DD; Claude nests subagents). */
  depth?: number;
  onChange(paths: string[]): void;
  onError?(err: Error): void;
}

/** Files a store keeps sessions in: transcripts, databases and their WAL/SHM sidecars. */
const STORE_FILE = /\.(jsonl|jsonl\.zst|json|db|sqlite|sqlite3)(-wal|-shm|-journal)?$/i;

/**
 * chokidar drops a 'change' for a path that arrives within 50 ms of the previous one it emitted
 * (a leading-edge throttle with no trailing event). A report made inside that window would let the
 * read run before a later write that nobody ever hears about, e.g. a file replaced by rename just
 * after an append was read, left stale until the next reconcile. Waiting longer than the window
 * after the last event means any change chokidar swallowed happened before our report, so the
 * read that follows the report sees it.
 */
export const CHOKIDAR_CHANGE_THROTTLE_MS = 50;
export const MIN_DEBOUNCE_MS = CHOKIDAR_CHANGE_THROTTLE_MS + 10;

export function isStoreFile(file: string): boolean {
  return STORE_FILE.test(path.basename(file));
}

export class StoreWatcher {
  /** Root → the chokidar watcher on it: one shared by the roots present at start, one per root that appeared later. */
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private pending = new Set<string>();
  private flushScheduled = false;
  private readonly debounceMs: number;
  private readonly depth: number;
  private readonly arrivals: RootArrivals;
  private started = false;
  private closed = false;

  constructor(
    private readonly roots: string[],
    private readonly opts: StoreWatcherOptions,
  ) {
    this.debounceMs = Math.max(opts.debounceMs ?? 75, MIN_DEBOUNCE_MS);
    this.depth = opts.depth ?? 6;
    this.arrivals = new RootArrivals(
      (root) => this.watchArrived(root),
      (err) => this.opts.onError?.(err),
    );
  }

  /** Starts watching the roots that exist and waiting for the others; resolves once the existing ones are scanned. */
  async start(): Promise<void> {
    const all = [...new Set(this.roots.map((r) => path.resolve(r)))];
    const existing = all.filter((r) => fs.existsSync(r));
    this.started = true;
    this.arrivals.wait(all.filter((r) => !existing.includes(r)));
    // chokidar never emits 'ready' for an empty list of paths: with no store yet there is nothing to wait for.
    if (existing.length === 0) return;
    const w = this.chokidar(true);
    const ready = new Promise<void>((resolve) => w.once('ready', () => resolve()));
    for (const r of existing) this.watchers.set(r, w);
    w.add(existing);
    await ready;
  }

  /** Checks the missing roots again (a lost event, an unwatchable ancestor). Returns the ones that appeared. */
  refreshRoots(): string[] {
    if (!this.started || this.closed) return [];
    this.rootsGone();
    return this.arrivals.check();
  }

  /**
   * `initial`: the roots present at start, whose files the first full pass reads, so their initial
   * scan reports nothing. A root that appears later is new, so everything found in it is reported
   * (also what was written between its creation and its watch).
   */
  private chokidar(initial: boolean): FSWatcher {
    const w = watch([], {
      ignoreInitial: initial,
      persistent: true,
      depth: this.depth,
      // Directories are always walked; among files only store files matter.
      ignored: (file, stats) => Boolean(stats?.isFile() && !isStoreFile(file)),
    });
    w.on('add', (p) => this.touch(p));
    w.on('change', (p) => this.touch(p));
    w.on('unlink', (p) => this.removed(p));
    w.on('unlinkDir', (p) => this.removed(p));
    w.on('error', (err) => this.opts.onError?.(err instanceof Error ? err : new Error(String(err))));
    return w;
  }

  private watchArrived(root: string): void {
    if (this.closed) return;
    const w = this.chokidar(false);
    this.watchers.set(root, w);
    w.add(root);
    this.touch(root); // its adapter re-lists even if the root is still empty
  }

  private removed(p: string): void {
    this.touch(p);
    this.rootsGone();
  }

  /**
   * chokidar reports nothing for a watched root itself being deleted, only for what was inside:
   * after a removal (and at each reconcile) a root that is gone is unwatched and waited for again,
   * so a store made anew is watched from its first file.
   */
  private rootsGone(): void {
    if (this.closed) return;
    const gone = [...this.watchers.keys()].filter((r) => !fs.existsSync(r));
    for (const root of gone) {
      const w = this.watchers.get(root)!;
      this.watchers.delete(root);
      if ([...this.watchers.values()].includes(w)) void w.unwatch(root);
      else void w.close();
      this.touch(root);
    }
    if (gone.length) this.arrivals.wait(gone);
  }

  private touch(file: string): void {
    if (this.closed) return;
    const existing = this.timers.get(file);
    if (existing) clearTimeout(existing);
    this.timers.set(
      file,
      setTimeout(() => {
        this.timers.delete(file);
        this.pending.add(file);
        this.scheduleFlush();
      }, this.debounceMs),
    );
  }

  /** Files whose debounce ended in the same tick are reported together. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const paths = [...this.pending];
      this.pending = new Set();
      if (paths.length && !this.closed) this.opts.onChange(paths);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.arrivals.close();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    const watchers = new Set(this.watchers.values());
    this.watchers.clear();
    await Promise.all([...watchers].map((w) => w.close()));
  }
}
