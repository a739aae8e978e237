/**
 * Ingest as the composition root runs it, reloaded with the settings: one IngestRunner at a time,
 * rebuilt when the agent store settings change (paths, enabled, machines), so watchers restart
 * live. Readers always reach the current runner through this object, never a stale one.
 */
import type { IndexProgress } from '../../../shared/api-types.js';
import type { AgentId, SourceProblem, SourceStatus } from '../../../shared/model.js';
import type { Settings } from '../../../shared/settings.js';
import { describeProblem } from '../../../shared/problems.js';
import type { Environment } from '../paths.js';
import { defaultAdapterModule, IngestRunner } from './ingest-runner.js';
import type { SessionIndex } from '../index/session-index.js';
import { problemSourceKey, readSourceProblems } from '../index/read-problems.js';
import type { MessageQuery, TranscriptReader } from '../index/transcript-reader.js';
import type { SourcesConfig } from './registry.js';
import type { SyncCounters } from './store-sync.js';
import type { RestartPolicy } from './ingest-supervisor.js';

export interface ReloadingIngestOptions {
  dataDir: string;
  environment: Environment;
  /** 'worker' (app, serve: ingest off the main thread) or 'inline' (one-shot CLI, tests). */
  ingest: 'worker' | 'inline';
  watch: boolean;
  rebuild?: boolean;
  /** Worker mode: how a dead ingest worker is restarted (default: the app's patient policy). */
  restartPolicy?: RestartPolicy;
  log: (line: string) => void;
  onProgress(progress: IndexProgress): void;
  onSessionsChanged(ids: string[]): void;
}

export function sourcesConfig(settings: Settings): SourcesConfig {
  return { agents: settings.agents, machines: settings.machines, wslDistros: settings.wslDistros };
}

function firstUnreadable(problems: SourceProblem[] | undefined): string | null {
  const p = problems?.find((x) => x.kind === 'unreadable');
  return p ? describeProblem(p) : null;
}

export class ReloadingIngest implements TranscriptReader {
  private runner: IngestRunner | null = null;
  private restarting: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ReloadingIngestOptions) {}

  get started(): boolean {
    return this.runner !== null;
  }

  /** The read side of the current index. Throws until `start()` ran. */
  get reader(): SessionIndex {
    if (!this.runner) throw new Error('The index is not started yet.');
    return this.runner.index;
  }

  async start(settings: Settings, rebuild = this.opts.rebuild): Promise<void> {
    const runner = await this.createRunner(settings, rebuild);
    this.runner = runner;
  }

  /** Swap in a runner built from new settings; the old one finishes its batch and closes. */
  restart(settings: Settings): Promise<void> {
    this.restarting = this.restarting.then(async () => {
      const previous = this.runner;
      if (previous) {
        previous.removeAllListeners();
        await previous.stop();
      }
      this.runner = await this.createRunner(settings, false);
    });
    return this.restarting;
  }

  whenCurrent(): Promise<void> {
    return this.restarting.then(() => this.runner?.whenCurrent());
  }

  progress(): IndexProgress {
    return (
      this.runner?.progress() ?? { phase: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, currentAt: null, error: null }
    );
  }

  async sourceStatus(settings: Settings): Promise<SourceStatus[]> {
    const read = (await this.runner?.sourceStatus()) ?? [];
    // Adapters know what this process read; the index knows every session ever seen and every
    // file that could not be read, whichever process met it.
    const remembered = this.runner ? readSourceProblems(this.runner.index.db) : new Map<string, never>();
    const statuses = read.map((status): SourceStatus => {
      const known = remembered.get(problemSourceKey(status.agent, status.host));
      const stored = this.runner?.index.storeSummary(status.agent, status.host ?? null);
      return {
        ...status,
        sessions: stored ? stored.sessions : status.sessions,
        latestAt: stored ? stored.latestAt : null,
        state: status.state === 'ok' && known?.unreadable ? 'unreadable' : status.state,
        lastError: status.lastError ?? firstUnreadable(known?.problems),
        problems: known?.problems ?? [],
      };
    });
    // Disabled agents have no adapter; say so instead of leaving them out.
    const disabled = (Object.keys(settings.agents) as AgentId[]).filter((a) => !settings.agents[a].enabled);
    return [
      ...statuses,
      ...disabled.map((agent): SourceStatus => ({
        agent,
        state: 'disabled',
        roots: [],
        sessions: 0,
        messages: 0,
        filesRead: 0,
        skippedLines: 0,
        lastError: null,
        lastReadAt: null,
        diagnostics: [],
        problems: [],
      })),
    ];
  }

  /** Work counters since the index started (in worker mode: of its first pass). */
  counters(): SyncCounters | null {
    return this.runner?.counters() ?? null;
  }

  /** One pass over every store now; resolves with what it read (null before start). */
  async syncNow(): Promise<SyncCounters | null> {
    return (await this.runner?.syncNow()) ?? null;
  }

  async stop(): Promise<void> {
    await this.restarting;
    await this.runner?.stop();
    this.runner = null;
  }

  getSession(sessionId: string) {
    return this.reader.getSession(sessionId);
  }

  countMessages(sessionId: string, query?: MessageQuery) {
    return this.reader.countMessages(sessionId, query);
  }

  limitStop(sessionId: string) {
    return this.reader.limitStop(sessionId);
  }

  getMessages(sessionId: string, query?: MessageQuery) {
    return this.reader.getMessages(sessionId, query);
  }

  private async createRunner(settings: Settings, rebuild: boolean | undefined): Promise<IngestRunner> {
    const config = sourcesConfig(settings);
    const ingest =
      this.opts.ingest === 'worker'
        ? { kind: 'worker' as const, adapterArgs: [config, this.opts.environment] }
        : {
            kind: 'inline' as const,
            adapters: (await import('./registry.js')).createAdapters(config, this.opts.environment),
            // A big pass (e.g. `baton index` on a large store) parses in a worker while this thread writes.
            readAhead: { adapterModule: defaultAdapterModule(), adapterArgs: [config, this.opts.environment] },
          };
    const runner = new IngestRunner({
      dataDir: this.opts.dataDir,
      ingest,
      watch: this.opts.watch,
      rebuild,
      restartPolicy: this.opts.restartPolicy,
      log: (level, message) => this.opts.log(`[index ${level}] ${message}`),
    });
    runner.on('progress', (p) => this.opts.onProgress(p));
    runner.on('sessions-changed', (ids) => this.opts.onSessionsChanged(ids));
    await runner.start();
    return runner;
  }
}
