/**
 * Keeps the ingest worker alive for the app and `baton serve`: starts it with a heap cap (a runaway
 * read must end the worker, not the app), and when it dies unexpectedly (out of heap, a crash in a
 * native module, an uncaught error) starts a new one after a growing delay. The index is a
 * rebuildable cache whose cursors commit with their rows, so a new worker resumes where the last
 * committed batch ended, with nothing duplicated or lost. After `maxRestarts` failures in a row it
 * gives up and says why; a worker that ran for `healthyAfterMs` clears the count.
 */
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { FromWorker, IngestWorkerInit, ToWorker } from './ingest-protocol.js';
import { launchWorker } from './worker-launch.js';

export interface RestartPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures in a row after which the supervisor gives up. */
  maxRestarts: number;
  /** A worker that lived this long before failing starts the count afresh. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { baseDelayMs: 1_000, maxDelayMs: 60_000, maxRestarts: 6, healthyAfterMs: 5 * 60_000 };

/** V8 old-space cap of the ingest worker: a cold index of 1 M messages peaks near 100 MB and keeps ~20 MB live. */
export const INGEST_WORKER_HEAP_MB = 256;

/** Delay before restart number `failures` (1-based), or null to give up. Doubling, capped. */
export function restartDelay(policy: RestartPolicy, failures: number): number | null {
  if (failures > policy.maxRestarts) return null;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
}

export interface IngestSupervisorEvents {
  message: [FromWorker];
  /** The worker died (`failures` in a row): `retryInMs` until the next one starts, or null when the supervisor gave up. */
  failed: [reason: string, retryInMs: number | null, failures: number];
}

export class IngestSupervisor extends EventEmitter<IngestSupervisorEvents> {
  private worker: Worker | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (value: unknown) => void>();

  constructor(
    private readonly init: IngestWorkerInit,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
    private readonly heapMb = INGEST_WORKER_HEAP_MB,
  ) {
    super();
  }

  start(): void {
    if (this.stopping || this.worker) return;
    const startedAt = Date.now();
    const worker = launchWorker('ingest-worker', this.init, { maxOldGenerationSizeMb: this.heapMb });
    this.worker = worker;
    let reason: string | null = null;
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'synced' || m.type === 'status') this.settle(m.id, m.type === 'synced' ? m.counters : m.status);
      this.emit('message', m);
      if (m.type === 'fatal') {
        // The worker's port keeps its thread alive after a failed start: end it, so it restarts.
        reason ??= m.message;
        void worker.terminate();
      }
    });
    worker.on('error', (err) => (reason ??= err.message));
    worker.on('exit', (code) => {
      this.worker = null;
      for (const done of this.pending.values()) done(null);
      this.pending.clear();
      if (this.stopping) return;
      if (Date.now() - startedAt >= this.policy.healthyAfterMs) this.failures = 0;
      this.failures++;
      const delay = restartDelay(this.policy, this.failures);
      this.emit('failed', reason ?? `exited with code ${code}`, delay, this.failures);
      if (delay !== null) this.timer = setTimeout(() => ((this.timer = null), this.start()), delay);
    });
  }

  /** Asks the running worker; resolves null when none runs or it dies before answering. */
  request(m: Extract<ToWorker, { id: number }>): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ ...m, id });
    });
  }

  private settle(id: number, value: unknown): void {
    this.pending.get(id)?.(value);
    this.pending.delete(id);
  }

  /** Cancels a pending restart, lets the worker commit its batch and exit (terminated after 10 s). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer) clearTimeout(this.timer);
      const worker = this.worker;
      if (!worker) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'stop' } satisfies ToWorker);
      const timeout = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timeout);
    })();
    return this.stopping;
  }
}
