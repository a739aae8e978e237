/**
 * Read-ahead for big syncs: a worker thread (read-ahead-worker.ts) with its own adapters parses the
 * units of one syncAll in order while this thread — the one owning the IndexWriter — applies the
 * batches already parsed. Parsing and SQLite writes then run on two cores instead of one after the
 * other. The writer acknowledges each batch once applied; the worker never runs more than
 * `maxInFlight` batches / `maxInFlightBytes` ahead, so memory stays bounded.
 *
 * A unit's batches come out of `batches(i)` exactly as `adapter.read` would yield them; a read that
 * throws in the worker throws here with the same message. If the worker is gone (crash, exit,
 * fatal error) `batches` throws ReadAheadUnavailable and the caller reads the rest on its own thread.
 */
import type { Worker } from 'node:worker_threads';
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { IndexLog } from '../index/index-db.js';
import { CLAIM, FLOW, type FromReadAhead, type ReadAheadInit, type ReadAheadItem, type ToReadAhead } from './read-ahead-protocol.js';
import { launchWorker, type AdapterSource } from './worker-launch.js';
import { unpackBatch } from './batch-pack.js';
import type { IndexBatch } from '../index/index-writer.js';

export type { ReadAheadItem } from './read-ahead-protocol.js';

export interface ReadAheadOptions extends AdapterSource {
  /** Use the worker only when the changed units of one sync total at least this (default 32 MB). */
  minBytes?: number;
  /** Parsed batches allowed to wait unapplied (default 128)… */
  maxInFlight?: number;
  /** …holding at most this many bytes read (default 32 MB). */
  maxInFlightBytes?: number;
  /**
   * The worker's V8 old-space cap (default 128 MB). Two isolates each left to V8's own heap growth
   * push a cold index well past its RSS budget (1.45 GB bench: +100 MB); capped, V8 collects sooner
   * (the parser's live set peaks ~85 MB there). Running out terminates only the worker: the writer
   * reads the rest itself.
   */
  workerHeapMb?: number;
  /**
   * Share of that room in use (by batches or bytes) from which the worker prepares each batch's FTS
   * texts, leaving the writer less to do (default 0.5; 0: always, Infinity: never, the writer does).
   */
  formsAheadAt?: number;
  /**
   * The biggest unit (bytes) the writer's thread reads itself when the worker has nothing ready for
   * it (see takeIfWaiting; default 2 MB, 0: never).
   */
  writerTakesUpTo?: number;
}

export const READ_AHEAD_MIN_BYTES = 32 * 1024 * 1024;
/**
 * How far the worker may run ahead. The writer stalls for a whole group commit (~0.1–0.3 s of FTS
 * segment writes) while the worker keeps parsing: with 8 MB of room the worker stopped long before
 * the commit ended and both threads idled in turn (a cold index used ~1.3 of 2 cores); 32 MB keeps
 * both busy (~1.7 cores, 22 → 16–19 s on the 1.45 GB bench). Packed batches are smaller than the
 * bytes read that count against this.
 */
export const READ_AHEAD_MAX_IN_FLIGHT = 128;
export const READ_AHEAD_MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
export const READ_AHEAD_WORKER_HEAP_MB = 128;
/**
 * A writer with half the room still to apply is the slower thread: the worker then takes on the FTS
 * texts (~5 % of a cold index's CPU). Below that the writer would wait for the worker, so it makes
 * them itself (a cold index of the bench corpus: the worker, busy parsing, ended ~0.2 s sooner).
 */
export const READ_AHEAD_FORMS_AHEAD_AT = 0.5;
/**
 * While the worker starts (~70 ms) and finds its first batch, the writer idled ~0.3 s of a cold
 * index: it reads small units itself meanwhile. Small, so the worker, running up to 32 MB ahead in
 * the meantime, never waits on it long.
 */
export const READ_AHEAD_WRITER_TAKES_UP_TO = 2 * 1024 * 1024;
/**
 * The worker's young generation. The parser makes short-lived garbage fast and each batch lives
 * until posted: at 8 MB, batches outlived their scavenges and V8 spent ~5 s of a 1.45 GB cold index
 * in GC (the run took ~22 s); 16 MB cut that run to ~18–19 s for ~+10 MB of RSS, and 48 MB (V8's
 * own default) took another ~0.15 s off the 431 MB bench corpus's ~3 s for ~+5 MB.
 */
const READ_AHEAD_WORKER_YOUNG_MB = 48;
const MIN_WORKER_HEAP_MB = 32;
/** How long the end-of-run status may take once every unit is through. */
const STATUS_TIMEOUT_MS = 5_000;

/** The worker cannot deliver this unit (gone, or no adapter for its agent): read it in-thread. */
export class ReadAheadUnavailable extends Error {}

export interface ReadAheadHooks {
  signal: AbortSignal;
  diagnostic(agent: AgentId, d: Omit<Diagnostic, 'at'>): void;
  log: IndexLog;
}

export class ReadAhead {
  private readonly worker: Worker;
  private readonly queue: FromReadAhead[] = [];
  private wake: (() => void) | null = null;
  /** Why the worker can no longer deliver (null while it can). */
  private gone: string | null = null;
  private closed = false;
  private status: SourceStatus[] | null = null;
  private readonly onAbort = () => this.end('aborted');
  /** Shared with the worker: see ReadAheadInit.flow and claims. */
  private readonly flow = new BigInt64Array(new SharedArrayBuffer(8 * FLOW.length));
  private readonly claims: Int8Array;

  constructor(
    private readonly items: ReadAheadItem[],
    opts: ReadAheadOptions,
    private readonly hooks: ReadAheadHooks,
  ) {
    const init: ReadAheadInit = {
      adapterModule: opts.adapterModule,
      adapterArgs: opts.adapterArgs,
      items,
      maxInFlight: Math.max(1, opts.maxInFlight ?? READ_AHEAD_MAX_IN_FLIGHT),
      maxInFlightBytes: opts.maxInFlightBytes ?? READ_AHEAD_MAX_IN_FLIGHT_BYTES,
      formsAheadAt: opts.formsAheadAt ?? READ_AHEAD_FORMS_AHEAD_AT,
      flow: this.flow.buffer as SharedArrayBuffer,
      claims: new SharedArrayBuffer(items.length),
    };
    this.claims = new Int8Array(init.claims);
    this.worker = launchWorker('read-ahead-worker', init, {
      // Below ~16 MB V8 cannot even bootstrap the isolate, and that failure is fatal to the process.
      maxOldGenerationSizeMb: Math.max(MIN_WORKER_HEAP_MB, opts.workerHeapMb ?? READ_AHEAD_WORKER_HEAP_MB),
      maxYoungGenerationSizeMb: READ_AHEAD_WORKER_YOUNG_MB,
    });
    this.worker.on('message', (m: FromReadAhead) => this.receive(m));
    this.worker.on('error', (err) => this.lost(`failed: ${err.message}`));
    this.worker.on('exit', (code) => this.lost(`exited (code ${code})`));
    hooks.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Still delivering (not crashed, aborted or closed). */
  get alive(): boolean {
    return this.gone === null;
  }

  /** The batches of `items[index]`, in order. Call for each item in order. */
  async *batches(index: number): AsyncGenerator<IndexBatch> {
    for (;;) {
      const m = await this.next();
      if (m.type === 'status' || m.type === 'fatal') continue; // handled on arrival
      if (m.index < index) {
        // Left over from a unit the writer stopped applying (its apply threw): drop, but free its slot.
        this.settle(m);
        continue;
      }
      if (m.index > index) {
        this.queue.unshift(m);
        throw new ReadAheadUnavailable(`read-ahead is past unit ${index}`);
      }
      switch (m.type) {
        case 'batch':
          try {
            yield unpackBatch(m.batch);
          } finally {
            // Applied, or the writer gave up on this unit: either way the worker may read on.
            this.ack(m.batch);
          }
          break;
        case 'diagnostic':
          this.hooks.diagnostic(this.items[index]!.agent, m.diagnostic);
          break;
        case 'end':
          return;
        case 'error':
          throw new Error(m.message);
        case 'skip':
          throw new ReadAheadUnavailable(`no ${this.items[index]!.agent} adapter in the read-ahead worker`);
      }
    }
  }

  /**
   * Takes `items[index]` for the writer's own thread when the worker has posted nothing the writer
   * has not applied (it is starting, or between units) and has not begun that item: true when this
   * thread now reads it, and the worker will pass it over. Waiting would leave this thread idle.
   */
  takeIfWaiting(index: number): boolean {
    if (this.gone || Atomics.load(this.flow, FLOW.posted) !== Atomics.load(this.flow, FLOW.applied)) return false;
    return Atomics.compareExchange(this.claims, index, CLAIM.none, CLAIM.writer) === CLAIM.none;
  }

  /** Once every unit is through: the worker adapters' status (null if it never came). */
  async finalStatus(): Promise<SourceStatus[] | null> {
    const end = Date.now() + STATUS_TIMEOUT_MS;
    while (!this.status && this.alive && Date.now() < end) {
      // Batches of a last unit the writer gave up on would keep the worker waiting for room.
      for (let m = this.queue.shift(); m; m = this.queue.shift()) this.settle(m);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, end - Date.now()));
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
    return this.status;
  }

  /** Ends the worker (idempotent). */
  async close(): Promise<void> {
    this.closed = true;
    this.end('closed');
    await this.worker.terminate();
  }

  private receive(m: FromReadAhead): void {
    if (m.type === 'status') this.status = m.status;
    else if (m.type === 'fatal') {
      this.lost(`failed: ${m.message}`);
      return;
    } else this.queue.push(m);
    this.notify();
  }

  private async next(): Promise<FromReadAhead> {
    for (;;) {
      if (this.hooks.signal.aborted) throw new Error('aborted');
      const m = this.queue.shift();
      if (m) return m;
      if (this.gone) throw new ReadAheadUnavailable(`read-ahead worker ${this.gone}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** A message the writer will not use: diagnostics still count, batches free their slot. */
  private settle(m: FromReadAhead): void {
    if (m.type === 'batch') this.ack(m.batch);
    else if (m.type === 'diagnostic') this.hooks.diagnostic(this.items[m.index]!.agent, m.diagnostic);
  }

  private ack(batch: { bytesRead: number }): void {
    Atomics.add(this.flow, FLOW.appliedBytes, BigInt(batch.bytesRead));
    Atomics.add(this.flow, FLOW.applied, 1n); // after the bytes: the worker never sees a batch applied without them
    if (this.gone) return;
    this.worker.postMessage({ type: 'ack' } satisfies ToReadAhead);
  }

  /** The worker died on its own: say so once; what it already posted is still used. */
  private lost(reason: string): void {
    if (this.gone) return;
    if (!this.closed && !this.hooks.signal.aborted) this.hooks.log('warn', `read-ahead worker ${reason}; reading the remaining units on the writer's thread`);
    this.end(reason);
    void this.worker.terminate();
  }

  private end(reason: string): void {
    this.gone ??= reason;
    this.hooks.signal.removeEventListener('abort', this.onAbort);
    if (reason === 'aborted') void this.worker.terminate();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
