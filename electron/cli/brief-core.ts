/**
 * What a one-shot `baton brief` needs when no running Baton answers: the index brought current
 * (settings + ingest, as `baton index` loads them: index-core.ts), baton.db for checkpoints and
 * pins, and the handoff service over them. Not the full core (createBatonCore also builds the API,
 * hand-offs, usage watchers, installers, MCP and remote machines), which is most of the code such
 * a brief used to load. The service, the session lookup and the list `--last` reads are the ones
 * the full core uses, so the brief is the same text either way (brief-core.test.ts).
 */
import type { Session } from '../../shared/model.js';
import type { GitDrift, GitSnapshot } from '../../shared/api-types.js';
import type { MachineSettings } from '../../shared/settings.js';
import type { SessionGit } from '../core/remote/remote-machines.js';
import type { WorkTreeFingerprint } from '../core/git/git-snapshot.js';
import { createHandoffService, type HandoffService } from '../core/handoff/handoff-service.js';
import { resolveSessionRef } from '../core/sessions/resolve-session.js';
import { settingsVisibility } from '../core/sessions/settings-visibility.js';
import { storeRootsFor } from '../core/sources/local-adapters.js';
import { openUserData } from '../core/userdata/user-data.js';
import type { Environment } from '../core/paths.js';
import type { SessionLister } from './commands/handoff-cli.js';
import { openIndexCore } from './index-core.js';

export interface BriefCore {
  handoff: HandoffService;
  /** The sessions a list shows (hidden stores and excluded projects left out), newest first. */
  sessions: SessionLister;
  close(): Promise<void>;
}

/**
 * Git of a session's folder, as the full core reads it (this machine's, or a host's over ssh), with
 * the remote machinery loaded only when a brief needs git at all (a session with a checkpoint).
 */
function lazySessionGit(machines: () => MachineSettings[]): { git: SessionGit; close(): void } {
  let loaded: Promise<{ git: SessionGit; close(): void }> | null = null;
  const load = () =>
    (loaded ??= import('../core/remote/remote-machines.js').then(({ RemoteMachines }) => {
      const m = new RemoteMachines(machines);
      return { git: m.sessionGit(), close: () => m.close() };
    }));
  return {
    git: {
      snapshot: async (session: Session, at: Date) => (await load()).git.snapshot(session, at),
      drift: async (session: Session, before: GitSnapshot | null, fingerprint: WorkTreeFingerprint, at: Date): Promise<GitDrift> =>
        (await load()).git.drift(session, before, fingerprint, at),
    },
    close: () => void loaded?.then((l) => l.close()),
  };
}

export async function openBriefCore(opts: { environment?: Environment } = {}): Promise<BriefCore> {
  const index = await openIndexCore({ ingest: 'inline', environment: opts.environment });
  const { environment, settings, sources } = index;
  let userData: ReturnType<typeof openUserData>;
  try {
    userData = openUserData(index.dataDir);
  } catch (err) {
    await index.close();
    throw err;
  }
  const remote = lazySessionGit(() => settings.get().machines);
  const handoff = createHandoffService({
    reader: sources,
    userData,
    settings: () => settings.get(),
    resolveSession: (ref) => resolveSessionRef(sources.reader, ref),
    home: environment.home,
    git: remote.git,
  });
  const storeRoots = (agent: Parameters<typeof storeRootsFor>[0]) => storeRootsFor(agent, settings.get().agents[agent], environment, settings.get().wslDistros);
  return {
    handoff,
    sessions: {
      listSessions: async (filters) => {
        const page = sources.reader.listSessions({ ...filters, visibility: settingsVisibility(settings.get(), environment.home, storeRoots) });
        return { total: page.total, sessions: page.sessions };
      },
    },
    async close() {
      remote.close();
      userData.close();
      await index.close();
    },
  };
}
