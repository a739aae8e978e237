/**
 * The core for one-shot CLI commands: the same composition root as the app and `baton serve`
 * (settings, HOME and the agents' env vars decide the stores), with no watcher; resolves once the
 * index is current.
 */
import type { IndexProgress } from '../../shared/api-types.js';
import type { BatonCore } from '../core/service.js';
import type { SyncCounters } from '../core/ingest/store-sync.js';
import type { Environment } from '../core/paths.js';
import { maskKnownSecrets } from '../core/redaction/known-secrets.js';

export interface CliCore {
  core: BatonCore;
  /** Work done to bring the index current: how far behind the stores it was. */
  catchUp: SyncCounters | null;
  catchUpMs: number;
  close(): Promise<void>;
}

export interface CliCoreOptions {
  rebuild?: boolean;
  onProgress?: (p: IndexProgress) => void;
  /**
   * Where ingest runs. Default inline (a quick catch-up, no thread to start); `baton index` uses the
   * app's heap-capped worker, since it may read a whole machine's history.
   */
  ingest?: 'worker' | 'inline';
  /** HOME, env vars and platform that decide the stores and the data dir (default: this process's). */
  environment?: Environment;
}

export async function openCliCore(opts: CliCoreOptions = {}): Promise<CliCore> {
  // Loaded here, not at the top: `baton --help` and the light commands must not pay for the core.
  const { createBatonCore } = await import('../core/service.js');
  const core = await createBatonCore({
    environment: opts.environment,
    ingest: opts.ingest ?? 'inline',
    watch: false,
    rebuildIndex: opts.rebuild,
    // Someone is waiting at the terminal: one quick retry, then the reason.
    ingestRestartPolicy: { baseDelayMs: 500, maxDelayMs: 500, maxRestarts: 1, healthyAfterMs: Number.POSITIVE_INFINITY },
    // Routine index chatter stays out of the terminal; warnings and errors do not.
    log: (line) => {
      // Masked synchronously with the redactor's own patterns: a warning can quote a store's path.
      if (!line.startsWith('[index info]')) process.stderr.write(`baton: ${maskKnownSecrets(line)}\n`);
    },
  });
  const unsubscribe = opts.onProgress
    ? core.events.subscribe((event) => event.type === 'index-progress' && opts.onProgress?.(event.progress))
    : () => {};
  const started = Date.now();
  try {
    await core.start();
    await core.whenCurrent();
  } catch (err) {
    await core.close();
    throw err;
  } finally {
    unsubscribe();
  }
  return { core, catchUp: core.sources.counters(), catchUpMs: Date.now() - started, close: () => core.close() };
}
