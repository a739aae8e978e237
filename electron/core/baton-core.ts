/**
 * What the composed core offers (built by service.ts, the composition root). Apart from service.ts so
 * the modules it wires, such as api.ts, depend on this contract and not on the module that builds
 * them: each import arrow points down.
 */
import type { AgentId } from '../../shared/model.js';
import type { ApiHandlers } from '../../shared/contract.js';
import type { HealthInfo } from '../../shared/api-types.js';
import type { RestartPolicy } from './ingest/ingest-supervisor.js';
import type { Environment } from './paths.js';
import type { SettingsStore } from './settings/settings-store.js';
import type { TokenStore } from './auth/token-store.js';
import type { CoreEvents } from './events.js';
import type { DesktopState } from './desktop-state.js';
import type { ReloadingIngest } from './ingest/reloading-ingest.js';
import type { SyncCounters } from './ingest/store-sync.js';
import type { UserData } from './userdata/user-data.js';
import type { HandoffService } from './handoff/handoff-service.js';
export interface CoreOptions {
  environment?: Environment;
  /** Overrides BATON_HOME / the platform data dir. */
  dataDir?: string;
  /** Log sink for operational messages (stderr in the CLI, a log file in Electron). */
  log?: (line: string) => void;
  /** Where ingest runs: a worker thread (app, serve; default) or this thread (one-shot CLI, tests). */
  ingest?: 'worker' | 'inline';
  /** Keep watching the stores after the first pass (default true; one-shot CLI commands say false). */
  watch?: boolean;
  /** Drop index.db and rebuild it from the stores. */
  rebuildIndex?: boolean;
  /** How a dead ingest worker is restarted (the app retries for minutes; a CLI command briefly). */
  ingestRestartPolicy?: RestartPolicy;
}

export interface BatonCore {
  readonly environment: Environment;
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly tokens: TokenStore;
  readonly events: CoreEvents;
  /** Tray-app state (hotkey, server, login item); written by Electron main, read by the API. */
  readonly desktop: DesktopState;
  readonly api: ApiHandlers;
  /** The session index (current even across settings changes) and the stores' status. */
  readonly sources: ReloadingIngest;
  /** baton.db: checkpoints, pins, notes — user data, never deleted. */
  readonly userData: UserData;
  readonly handoff: HandoffService;
  readonly startedAt: number;
  /** A session reference (id, id prefix, title words) to its id; ApiError when none or ambiguous. */
  resolveSession(ref: string): string;
  /** Re-reads the stores now (what the watcher would do), so a caller sees the latest turns; resolves with what the pass read (null: ingest not started). */
  syncNow(agent?: AgentId): Promise<SyncCounters | null>;
  log(line: string): void;
  /** Store roots per agent as the user configured them (override or detected default). */
  storeRoots(agent: AgentId): string[];
  detectedRoots(): Record<AgentId, string[]>;
  /** Liveness and index status; reveals nothing private (served without a token). */
  health(): HealthInfo;
  /** Opens the index and starts ingest (and watching); returns before the first pass ends. */
  start(): Promise<void>;
  /** Resolves when the index reflects the stores as they were at start. */
  whenCurrent(): Promise<void>;
  close(): Promise<void>;
}
