/**
 * Watches the agents' store roots and reports changed files, debounced per file so a burst of
 * appends (Claude writes line by line) becomes one read. Events are only hints: whoever consumes
 * them re-stats and reads from its saved cursor, and a periodic reconcile catches anything missed.
 * Roots that do not exist yet are looked for every second (an agent installed while Baton runs):
 * its first session is then read within about a second, not at the next reconcile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

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

/** How often roots that do not exist yet are looked for. */
const ROOT_POLL_MS = 1000;

export function isStoreFile(file: string): boolean {
  return STORE_FILE.test(path.basename(file));
}

export class StoreWatcher {
  private watcher: FSWatcher | null = null;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly watched = new Set<string>();
  private pending = new Set<string>();
  private flushScheduled = false;
  private readonly debounceMs: number;
  private readonly depth: number;
  private closed = false;
  private rootPoll: NodeJS.Timeout | null = null;
  /** Roots added on the previous poll: reported once more, after chokidar has scanned them. */
  private justAdded: string[] = [];

  constructor(
    private readonly roots: string[],
    private readonly opts: StoreWatcherOptions,
  ) {
    this.debounceMs = Math.max(opts.debounceMs ?? 75, MIN_DEBOUNCE_MS);
    this.depth = opts.depth ?? 6;
  }

  /** Starts watching the roots that exist; resolves once the initial directory scan is done. */
  async start(): Promise<void> {
    const existing = this.roots.map((r) => path.resolve(r)).filter((r) => fs.existsSync(r));
    const w = watch([], {
      ignoreInitial: true,
      persistent: true,
      depth: this.depth,
      // Directories are always walked; among files only store files matter.
      ignored: (file, stats) => Boolean(stats?.isFile() && !isStoreFile(file)),
    });
    this.watcher = w;
    w.on('add', (p) => this.touch(p));
    w.on('change', (p) => this.touch(p));
    w.on('unlink', (p) => this.touch(p));
    w.on('unlinkDir', (p) => this.touch(p));
    w.on('error', (err) => this.opts.onError?.(err instanceof Error ? err : new Error(String(err))));
    if (existing.length < this.roots.length) this.pollMissingRoots();
    // chokidar says 'ready' after scanning what it was given: with no root on disk yet (no agent
    // installed) it would never say it, and the first pass would wait forever.
    if (existing.length === 0) return;
    const ready = new Promise<void>((resolve) => w.once('ready', () => resolve()));
    for (const r of existing) this.watched.add(r);
    w.add(existing);
    await ready;
  }

  /**
   * A root that appears is reported whole (its consumer re-lists it), on the tick it appears and
   * once more on the next: files written while chokidar was still scanning the new root raise no
   * event of their own.
   */
  private pollMissingRoots(): void {
    this.rootPoll = setInterval(() => {
      for (const r of this.justAdded) this.touch(r);
      this.justAdded = this.refreshRoots();
      for (const r of this.justAdded) this.touch(r);
      if (this.justAdded.length === 0 && this.watched.size === new Set(this.roots.map((r) => path.resolve(r))).size) this.stopRootPoll();
    }, ROOT_POLL_MS);
    this.rootPoll.unref?.();
  }

  private stopRootPoll(): void {
    if (this.rootPoll) clearInterval(this.rootPoll);
    this.rootPoll = null;
  }

  /** Adds roots that have appeared since start (an agent installed later). Returns the new ones. */
  refreshRoots(): string[] {
    if (!this.watcher || this.closed) return [];
    const added = this.roots.map((r) => path.resolve(r)).filter((r) => !this.watched.has(r) && fs.existsSync(r));
    for (const r of added) this.watched.add(r);
    if (added.length) this.watcher.add(added);
    return added;
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
    this.stopRootPoll();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.watcher?.close();
    this.watcher = null;
  }
}
