/**
 * The main process's connections to the machines in settings, for what needs the host itself
 * rather than the index: the git state of a host session's folder (checkpoints, drift, briefs).
 * Connections open on first use and are rebuilt when a machine's settings change.
 */
import { machineLabel } from '../../../shared/machines.js';
import type { GitDrift, GitSnapshot } from '../../../shared/api-types.js';
import type { Session } from '../../../shared/model.js';
import type { MachineSettings } from '../../../shared/settings.js';
import { computeGitDrift } from '../git/git-drift.js';
import { emptySnapshot, takeGitSnapshot, type SnapshotWithFingerprint, type WorkTreeFingerprint } from '../git/git-snapshot.js';
import { RemoteHost, type RemoteHostOptions } from './remote-host.js';
import { sessionHost } from './remote-ids.js';

/** Git state of a session's folder, wherever that folder is. */
export interface SessionGit {
  snapshot(session: Session, at: Date): Promise<SnapshotWithFingerprint>;
  drift(session: Session, before: GitSnapshot | null, fingerprint: WorkTreeFingerprint, at: Date): Promise<GitDrift>;
}

export const localSessionGit: SessionGit = {
  snapshot: (session, at) => takeGitSnapshot(session.cwd, at),
  drift: (session, before, fingerprint, at) => computeGitDrift(session.cwd, before, fingerprint, at),
};

export class RemoteMachines {
  private readonly hosts = new Map<string, { settings: string; host: RemoteHost }>();

  constructor(
    private readonly machines: () => MachineSettings[],
    private readonly opts: RemoteHostOptions = {},
  ) {}

  /** The connection to the enabled machine labelled `label`, or null when there is none. */
  host(label: string): RemoteHost | null {
    const machine = this.machines().find((m) => m.enabled && machineLabel(m) === label);
    const known = this.hosts.get(label);
    const settings = JSON.stringify(machine ?? null);
    if (known && known.settings === settings) return known.host;
    known?.host.close();
    this.hosts.delete(label);
    if (!machine) return null;
    const host = new RemoteHost(machine, this.opts);
    this.hosts.set(label, { settings, host });
    return host;
  }

  /** Local git for this machine's sessions, the host's git (run there) for a host's session. */
  sessionGit(): SessionGit {
    const on = (session: Session): { host: RemoteHost | null; label: string } | null => {
      const label = sessionHost(session.id);
      return label ? { label, host: this.host(label) } : null;
    };
    const why = (label: string, err: unknown) =>
      `the folder is on ${label}, which cannot be reached: ${err instanceof Error ? err.message : String(err)}`;
    return {
      snapshot: async (session, at) => {
        const remote = on(session);
        if (!remote) return localSessionGit.snapshot(session, at);
        try {
          if (!remote.host) throw new Error('it is not an enabled machine in settings');
          return await remote.host.gitSnapshot(session.cwd);
        } catch (err) {
          return { snapshot: emptySnapshot(why(remote.label, err), at), fingerprint: {} };
        }
      },
      drift: async (session, before, fingerprint, at) => {
        const remote = on(session);
        if (!remote) return localSessionGit.drift(session, before, fingerprint, at);
        try {
          if (!remote.host) throw new Error('it is not an enabled machine in settings');
          return await remote.host.gitDrift(session.cwd, before, fingerprint);
        } catch (err) {
          const error = why(remote.label, err);
          return { error, branchSwitched: null, commitsSince: [], filesChangedSince: [], workTreeChanged: false, now: emptySnapshot(error, at) };
        }
      },
    };
  }

  close(): void {
    for (const { host } of this.hosts.values()) host.close();
    this.hosts.clear();
  }
}
