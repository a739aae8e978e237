/**
 * The composition root: the only place that constructs Baton's core services and connects them.
 * Electron main, `baton serve` and the CLI commands all call `createBatonCore`; nothing else
 * reaches for globals.
 */
import fs from 'node:fs';
import { AGENTS, type AgentId } from '../../shared/model.js';
import type { ApiHandlers } from '../../shared/contract.js';
import type { HealthInfo } from '../../shared/api-types.js';
import { BATON_VERSION } from './version.js';
import { batonDataDir, currentEnvironment, defaultStoreRoots, type Environment } from './paths.js';
import { SettingsStore } from './settings/settings-store.js';
import { TokenStore } from './auth/token-store.js';
import { CoreEvents } from './events.js';
import { DesktopState } from './desktop-state.js';
import { createApiHandlers } from './api.js';

export interface CoreOptions {
  environment?: Environment;
  /** Overrides BATON_HOME / the platform data dir. */
  dataDir?: string;
  /** Log sink for operational messages (stderr in the CLI, a log file in Electron). */
  log?: (line: string) => void;
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
  readonly startedAt: number;
  log(line: string): void;
  /** Store roots per agent as the user configured them (override or detected default). */
  storeRoots(agent: AgentId): string[];
  detectedRoots(): Record<AgentId, string[]>;
  /** Liveness and index status; reveals nothing private (served without a token). */
  health(): HealthInfo;
  /** Brings the index current and starts watching the stores. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createBatonCore(options: CoreOptions = {}): Promise<BatonCore> {
  const environment = options.environment ?? currentEnvironment();
  const dataDir = options.dataDir ?? batonDataDir(environment);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const settings = new SettingsStore(dataDir);
  if (settings.warning) log(settings.warning);
  const tokens = new TokenStore(dataDir);
  const events = new CoreEvents();
  const closers: (() => Promise<void> | void)[] = [];

  const detectedRoots = () =>
    Object.fromEntries(AGENTS.map((agent) => [agent, defaultStoreRoots(agent, environment)])) as Record<AgentId, string[]>;
  const storeRoots = (agent: AgentId) => {
    const override = settings.get().agents[agent].path;
    return override ? [override] : defaultStoreRoots(agent, environment);
  };

  const core: BatonCore = {
    environment,
    dataDir,
    settings,
    tokens,
    events,
    desktop: new DesktopState(),
    startedAt: Date.now(),
    api: undefined as unknown as ApiHandlers,
    log,
    storeRoots,
    detectedRoots,
    health: () => ({
      ok: true,
      name: 'baton',
      version: BATON_VERSION,
      uptimeSeconds: Math.round((Date.now() - core.startedAt) / 1000),
      index: { phase: 'idle', sessions: 0, currentAt: null },
    }),
    async start() {
      // The index and watcher start here once they exist.
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
  (core as { api: ApiHandlers }).api = createApiHandlers(core);
  settings.onChange(() => events.emit({ type: 'settings-changed' }));
  return core;
}
