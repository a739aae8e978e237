/**
 * The index for one-shot CLI commands: find the stores exactly as the app does (settings + HOME and
 * the agents' env vars), bring index.db current inline (no worker, no watcher), and hand back the
 * read side. Every CLI command that needs sessions goes through `openIndexForCli()`.
 */
import type { IndexProgress } from '../../../shared/api-types.js';
import type { SourceStatus } from '../../../shared/model.js';
import { batonDataDir, currentEnvironment, type Environment } from '../paths.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createAdapters, type SourcesConfig } from '../sources/registry.js';
import type { IndexLog } from './index-db.js';
import type { SyncCounters } from './index-sync.js';
import { IndexService } from './index-service.js';
import type { SessionIndex } from './session-index.js';

export interface CliIndexOptions {
  environment?: Environment;
  /** Which agents and store paths; default: the user's settings in the data dir. */
  sources?: SourcesConfig;
  rebuild?: boolean;
  onProgress?: (p: IndexProgress) => void;
  log?: IndexLog;
}

export interface CliIndex {
  index: SessionIndex;
  dataDir: string;
  sourceStatus(): Promise<SourceStatus[]>;
  progress(): IndexProgress;
  /** Work done to bring the index current: how far behind the stores it was. */
  catchUp: SyncCounters | null;
  /** Milliseconds the catch-up took. */
  catchUpMs: number;
  close(): Promise<void>;
}

export async function openIndexForCli(opts: CliIndexOptions = {}): Promise<CliIndex> {
  const environment = opts.environment ?? currentEnvironment();
  const dataDir = batonDataDir(environment);
  const sources = opts.sources ?? new SettingsStore(dataDir).get();
  const service = new IndexService({
    dataDir,
    ingest: { kind: 'inline', adapters: createAdapters(sources, environment) },
    watch: false,
    rebuild: opts.rebuild,
    log: opts.log ?? ((level, message) => level !== 'info' && process.stderr.write(`baton: ${message}\n`)),
  });
  if (opts.onProgress) service.on('progress', opts.onProgress);
  const started = Date.now();
  await service.start();
  try {
    await service.whenCurrent();
  } catch (err) {
    await service.stop();
    throw err;
  }
  return {
    index: service.index,
    dataDir,
    sourceStatus: () => service.sourceStatus(),
    progress: () => service.progress(),
    catchUp: service.counters(),
    catchUpMs: Date.now() - started,
    close: () => service.stop(),
  };
}
