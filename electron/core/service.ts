/**
 * The composition root: the only place that constructs Baton's core services and connects them.
 * Electron main, `baton serve` and the CLI commands all call `createBatonCore`; nothing else
 * reaches for globals.
 */
import fs from 'node:fs';
import { AGENTS, type AgentId } from '../../shared/model.js';
import type { ApiHandlers } from '../../shared/contract.js';
import { BATON_VERSION } from './version.js';
import { batonDataDir, currentEnvironment, defaultStoreRoots } from './paths.js';
import { SettingsStore } from './settings/settings-store.js';
import { TokenStore } from './auth/token-store.js';
import { CoreEvents } from './events.js';
import { DesktopState } from './desktop-state.js';
import { createApiHandlers } from './api.js';
import type { BatonCore, CoreOptions } from './baton-core.js';
import { ReloadingIngest } from './ingest/reloading-ingest.js';
import { resolveSessionRef } from './sessions/resolve-session.js';
import { openUserData } from './userdata/user-data.js';
import { createHandoffService } from './handoff/handoff-service.js';
import { watchUsageAlerts } from './usage/usage-watch.js';
import { watchAutoContinue } from './auto/auto-continue.js';
import { handOff } from './handoff/hand-off.js';
import { watchLimitHits } from './usage/limit-watch.js';
import { handoffAfterHit } from './usage/limit-resets.js';
import { UsageReport } from './usage/usage-report.js';
import { Pricing } from './usage/pricing.js';
import { RemoteMachines } from './remote/remote-machines.js';
import { storeRootsFor } from './sources/local-adapters.js';

export type { BatonCore, CoreOptions } from './baton-core.js';

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
  const userData = openUserData(dataDir);
  closers.push(() => userData.close());
  const sources = new ReloadingIngest({
    dataDir,
    environment,
    ingest: options.ingest ?? 'worker',
    watch: options.watch ?? true,
    rebuild: options.rebuildIndex,
    restartPolicy: options.ingestRestartPolicy,
    log,
    onProgress: (progress) => events.emit({ type: 'index-progress', progress }),
    onSessionsChanged: (sessionIds) => events.emit({ type: 'sessions-changed', sessionIds }),
  });
  closers.push(() => sources.stop());
  const resolveSession = (ref: string) => resolveSessionRef(sources.reader, ref);
  // Git of a host session's folder is read on the host (its own ssh connection, shared via ControlMaster).
  const machines = new RemoteMachines(() => settings.get().machines);
  closers.push(() => machines.close());
  const handoff = createHandoffService({
    reader: sources,
    userData,
    settings: () => settings.get(),
    resolveSession,
    home: environment.home,
    git: machines.sessionGit(),
  });

  const detectedRoots = () =>
    Object.fromEntries(AGENTS.map((agent) => [agent, defaultStoreRoots(agent, environment)])) as Record<AgentId, string[]>;
  const storeRoots = (agent: AgentId) => storeRootsFor(agent, settings.get().agents[agent], environment, settings.get().wslDistros);

  const core: BatonCore = {
    environment,
    dataDir,
    settings,
    tokens,
    events,
    desktop: new DesktopState(),
    sources,
    userData,
    handoff,
    resolveSession,
    startedAt: Date.now(),
    api: undefined as unknown as ApiHandlers,
    log,
    storeRoots,
    detectedRoots,
    health: () => {
      const progress = sources.progress();
      return {
        ok: true,
        name: 'baton',
        version: BATON_VERSION,
        uptimeSeconds: Math.round((Date.now() - core.startedAt) / 1000),
        index: { phase: progress.phase, sessions: sources.started ? sources.reader.sessionCount() : 0, currentAt: progress.currentAt },
      };
    },
    async start() {
      if (!sources.started) await sources.start(settings.get());
    },
    whenCurrent: () => sources.whenCurrent(),
    syncNow() {
      // One pass over every enabled store reads only what changed, so it is cheap for one agent too.
      return sources.syncNow();
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
  (core as { api: ApiHandlers }).api = createApiHandlers(core);
  // Only a long-running core (app, serve) announces usage alerts; a one-shot command has no one to tell.
  if (options.watch ?? true) {
    closers.push(watchUsageAlerts({ events, summary: () => core.api.usageSummary({}), settings: () => settings.get(), log }));
    // Unattended continuation acts only on what happens while this core watches (never a one-shot command's catch-up).
    const auto = watchAutoContinue({
      events,
      store: userData.auto,
      summary: () => core.api.usageSummary({}),
      settings: () => settings.get(),
      sessionCwd: (id) => (sources.started ? (sources.reader.getSession(id)?.cwd ?? null) : null),
      handOff: (request) => handOff(core, { ...request, open: true }),
      log,
    });
    closers.push(() => auto.stop());
    closers.push(
      watchLimitHits({
        events,
        hits: async (since) => new UsageReport(sources.reader.db, new Pricing(settings.get().modelPricing)).limitHits({ since }),
        carriedOn: (hit) => handoffAfterHit(userData.listHandoffs({ sessionId: hit.session }), hit),
        settings: () => settings.get(),
        log,
      }),
    );
  }
  settings.onChange((next, previous) => {
    events.emit({ type: 'settings-changed' });
    // Store paths or enabled agents changed: restart ingest and watchers on the new roots.
    const sourcesOf = (s: typeof next) => JSON.stringify([s.agents, s.machines, s.wslDistros]);
    if (sources.started && sourcesOf(next) !== sourcesOf(previous)) {
      void sources.restart(next).then(
        () => events.emit({ type: 'sessions-changed', sessionIds: [] }),
        (err: unknown) => log(`index restart failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  });
  return core;
}
