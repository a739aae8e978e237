/**
 * What `baton index` needs of the core: the settings (which stores, where) and ingest, nothing
 * else. The full core (createBatonCore) also builds the API, hand-offs, user data, remote git and
 * the redactor, twice the code to load; a warm `baton index` with nothing changed should cost
 * Node's start-up and a stat of the store files, not that. Ingest is built as the core builds it
 * (ReloadingIngest from the settings), so the stores read and the index written are the same.
 */
import fs from 'node:fs';
import type { IndexProgress } from '../../shared/api-types.js';
import type { SyncCounters } from '../core/ingest/store-sync.js';
import { ReloadingIngest } from '../core/ingest/reloading-ingest.js';
import { batonDataDir, currentEnvironment, type Environment } from '../core/paths.js';
import { SettingsStore } from '../core/settings/settings-store.js';
import { maskKnownSecrets } from '../core/redaction/known-secrets.js';

export interface IndexCore {
  dataDir: string;
  environment: Environment;
  settings: SettingsStore;
  sources: ReloadingIngest;
  /** Work done to bring the index current: how far behind the stores it was. */
  catchUp: SyncCounters | null;
  catchUpMs: number;
  close(): Promise<void>;
}

export interface IndexCoreOptions {
  rebuild?: boolean;
  onProgress?: (p: IndexProgress) => void;
  /** Where ingest runs (see CliCoreOptions.ingest). */
  ingest: 'worker' | 'inline';
  environment?: Environment;
}

export async function openIndexCore(opts: IndexCoreOptions): Promise<IndexCore> {
  const environment = opts.environment ?? currentEnvironment();
  const dataDir = batonDataDir(environment);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // As openCliCore logs: routine index chatter stays out of the terminal, warnings are masked.
  const log = (line: string) => {
    if (!line.startsWith('[index info]')) process.stderr.write(`baton: ${maskKnownSecrets(line)}\n`);
  };
  const settings = new SettingsStore(dataDir);
  if (settings.warning) log(settings.warning);
  const sources = new ReloadingIngest({
    dataDir,
    environment,
    ingest: opts.ingest,
    watch: false,
    rebuild: opts.rebuild,
    // Someone is waiting at the terminal: one quick retry, then the reason.
    restartPolicy: { baseDelayMs: 500, maxDelayMs: 500, maxRestarts: 1, healthyAfterMs: Number.POSITIVE_INFINITY },
    log,
    onProgress: (p) => opts.onProgress?.(p),
    onSessionsChanged: () => {},
  });
  const started = Date.now();
  try {
    await sources.start(settings.get());
    await sources.whenCurrent();
  } catch (err) {
    await sources.stop();
    throw err;
  }
  return { dataDir, environment, settings, sources, catchUp: sources.counters(), catchUpMs: Date.now() - started, close: () => sources.stop() };
}
