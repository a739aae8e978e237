/**
 * Waits for store roots that do not exist yet (an agent installed after Baton, or a store deleted
 * and made again). Each missing root is watched through its nearest existing ancestor directory,
 * non-recursively: when anything changes there, the roots are checked again, and the watch moves
 * down as the path is created level by level (`~/.local` → `~/.local/share` → `…/opencode`).
 */
import fs from 'node:fs';
import path from 'node:path';

function exists(p: string): boolean {
  return fs.existsSync(p);
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The closest directory above `root` that exists (the filesystem root at worst). */
export function nearestExistingAncestor(root: string): string {
  let dir = path.dirname(root);
  for (;;) {
    if (isDirectory(dir)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
}

export class RootArrivals {
  private readonly waiting = new Set<string>();
  private readonly watchers = new Map<string, { close(): void }>();
  private scheduled = false;
  private closed = false;

  constructor(
    /** Called once per root that came into existence, in the order they were found. */
    private readonly onArrive: (root: string) => void,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /** Starts waiting for `roots` (absolute paths); ones that exist by now arrive at once. */
  wait(roots: string[]): string[] {
    for (const r of roots) this.waiting.add(r);
    return this.check();
  }

  /** Roots still missing. */
  missing(): string[] {
    return [...this.waiting];
  }

  /**
   * Reports the roots that exist now and moves each ancestor watch to where the path currently
   * ends. Repeats until nothing moves: a level created between a look and its watch is not missed.
   */
  check(): string[] {
    const arrived: string[] = [];
    if (this.closed) return arrived;
    for (let round = 0; round < 64; round++) {
      const now = [...this.waiting].filter(exists);
      for (const r of now) {
        this.waiting.delete(r);
        arrived.push(r);
      }
      const wanted = new Set([...this.waiting].map(nearestExistingAncestor));
      let opened = false;
      for (const [dir, w] of this.watchers) {
        if (wanted.has(dir)) continue;
        w.close();
        this.watchers.delete(dir);
      }
      for (const dir of wanted) {
        if (this.watchers.has(dir)) continue;
        this.watchers.set(dir, this.watch(dir));
        opened = true;
      }
      if (now.length === 0 && !opened) break;
    }
    for (const r of arrived) this.onArrive(r);
    return arrived;
  }

  private watch(dir: string): { close(): void } {
    try {
      const w = fs.watch(dir, { persistent: true }, () => this.schedule());
      // An ancestor that vanished (or could not be watched) is replaced at the next check.
      w.on('error', () => {
        w.close();
        if (this.watchers.get(dir) === w) this.watchers.delete(dir);
        this.schedule();
      });
      return w;
    } catch (err) {
      this.onError(new Error(`cannot watch ${dir} for agent stores to appear: ${err instanceof Error ? err.message : String(err)}`));
      // A watcher that watches nothing, so check() does not retry this directory in a loop; the
      // periodic reconcile calls check() again.
      return { close() {} };
    }
  }

  /** Events come in bursts (a directory tree made at once): one check per tick. */
  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.check();
    });
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
