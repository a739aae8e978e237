/**
 * The core's implementation of the API contract: one function per call, each delegating to the
 * service that owns the work. Inputs arrive validated (see shared/contract.ts).
 */
import { ApiError, type ApiHandlers } from '../../shared/contract.js';
import type { BatonCore } from './baton-core.js';
import type { hookRuntimeFor as HookRuntimeFor } from './install/hooks/hook-command.js';
import { AGENTS, type Session } from '../../shared/model.js';
import type { SessionVisibility } from './index/session-visibility.js';
import type { SessionSummary } from '../../shared/api-types.js';
import { stalenessBand } from './briefs/staleness.js';
import { checkStorePath } from './sessions/check-path.js';
import { settingsVisibility } from './sessions/settings-visibility.js';
import { machineLabel } from '../../shared/machines.js';
import { sessionHost } from './remote/remote-ids.js';
import { remoteOpenCommand } from './remote/remote-open.js';
import { findMachine, testMachine } from './remote/machine-test.js';
import { wslOpenPowerShell, wslPathToLinux } from './wsl/wsl-paths.js';
import { defaultControlDir } from './remote/ssh-command.js';
import { hostProbe, openInAgent as openAgentInTerminal } from './terminal/open-in-agent.js';
import { Pricing } from './usage/pricing.js';
import { UsageReport } from './usage/usage-report.js';

// Loaded by the calls that use them: installing edits agents' config files (yaml, toml, jsonc and
// diff parsers), handing off snapshots git, continuing writes other agents' stores; a `baton list`
// or `search` needs none of it.
const installApi = () => import('./install/mcp-entries/install-api.js');
const hooksApi = async () => ({
  ...(await import('./install/hooks/hooks-installer.js')),
  ...(await import('./install/hooks/hook-command.js')),
  ...(await import('./install/hooks/hook-targets.js')),
});
const autoApi = () => import('./auto/auto-api.js');
const continueApi = () => import('./continue/continue-session.js');


export function createApiHandlers(core: BatonCore): ApiHandlers {
  /** Sessions from the stores configured now, minus excluded projects (tilde means home). */
  const visibility = (): SessionVisibility => settingsVisibility(core.settings.get(), core.environment.home, (agent) => core.storeRoots(agent));
  /** A session as lists show it: plus its latest checkpoint and that checkpoint's staleness. */
  /** Source ↔ continuation links from baton.db, read once per listing. */
  const continuationLinks = () => {
    const from = new Map<string, string>();
    const into = new Map<string, string[]>();
    for (const c of core.userData.continuations.list()) {
      from.set(c.targetSession, c.sourceSession);
      into.set(c.sourceSession, [...(into.get(c.sourceSession) ?? []), c.targetSession]);
    }
    return { from, into };
  };
  const summarize = (sessions: Session[]): SessionSummary[] => {
    const latest = core.userData.latestCheckpointTimes(sessions.map((s) => s.id));
    const links = continuationLinks();
    const now = new Date();
    return sessions.map((session) => {
      const at = latest.get(session.id) ?? null;
      const continuedFrom = links.from.get(session.id);
      const continuedIn = links.into.get(session.id);
      return {
        ...session,
        latestCheckpointAt: at,
        staleness: at ? stalenessBand(at, now) : null,
        ...(continuedFrom ? { continuedFrom } : {}),
        ...(continuedIn ? { continuedIn } : {}),
      };
    });
  };
  const usageReport = () => new UsageReport(core.sources.reader.db, new Pricing(core.settings.get().modelPricing));
  const settingsView = () => ({
    settings: core.settings.get(),
    detected: core.detectedRoots(),
    warning: core.settings.warning,
    dataDir: core.dataDir,
  });
  const hookContext = (hookRuntimeFor: typeof HookRuntimeFor) => ({
    environment: core.environment,
    runtime: hookRuntimeFor(core.environment, core.dataDir),
    dataDir: core.dataDir,
  });
  const mcpInfo = () => {
    const port = core.settings.get().port;
    return { url: `http://127.0.0.1:${port}/mcp`, port, token: core.tokens.get() };
  };

  return {
    health: async () => core.health(),
    indexProgress: async () => core.sources.progress(),
    sourceStatus: async () => core.sources.sourceStatus(core.settings.get()),
    getSettings: async () => settingsView(),
    updateSettings: async (patch) => {
      core.settings.update(patch);
      return settingsView();
    },
    checkPath: async ({ agent, path }) =>
      checkStorePath(agent, path, core.sources.started ? core.sources.reader : null),
    listSessions: async (filters) => {
      const page = core.sources.reader.listSessions({ ...filters, visibility: visibility() });
      return { total: page.total, sessions: summarize(page.sessions) };
    },
    getSession: async ({ session }) => {
      const found = core.sources.reader.getSession(core.resolveSession(session));
      if (!found) throw new ApiError('not_found', `Session ${session} is no longer in the index.`);
      return found;
    },
    getMessages: async ({ session, offset, limit }) => {
      const id = core.resolveSession(session);
      return {
        total: core.sources.reader.countMessages(id),
        messages: core.sources.reader.getMessages(id, { offset, limit }),
      };
    },
    search: async ({ query, agent, session, limit }) =>
      core.sources.reader.search(query, {
        agent,
        limit,
        sessionId: session ? core.resolveSession(session) : undefined,
        visibility: visibility(),
      }),
    generateBrief: async (request) => core.handoff.generateBrief({ ...request, session: core.resolveSession(request.session) }),
    createCheckpoint: async (request) => core.handoff.createCheckpoint(request, core.resolveSession(request.session)),
    listCheckpoints: async ({ session }) => core.handoff.listCheckpoints(core.resolveSession(session)),
    restore: async ({ session, ...rest }) => core.handoff.restore({ ...rest, sessionId: core.resolveSession(session) }),
    completeHandoff: async ({ session, checkpointId }) =>
      core.handoff.completeHandoff({ checkpointId, sessionId: session ? core.resolveSession(session) : undefined }),
    handoffStatus: async () => core.handoff.handoffStatus(),
    usageReport: async ({ by, agent, since }) => {
      const report = usageReport();
      const filter = { agent, since };
      switch (by) {
        case 'day':
          return { by, rows: report.byDay(filter) };
        case 'block':
          return { by, rows: report.byBlock(filter) };
        case 'model':
          return { by, rows: report.byModel(filter) };
        default:
          return { by: 'session' as const, rows: report.bySession(filter) };
      }
    },
    usageSummary: async ({ agent, session }) =>
      usageReport().summary({ agent, sessionId: session ? core.resolveSession(session) : undefined, agents: AGENTS.filter((a) => core.settings.get().agents[a].enabled) }),
    handOff: async (input) => (await import('./handoff/hand-off.js')).handOff(core, input),
    continueSession: async (input) => (await continueApi()).continueSession(core, input),
    undoContinue: async ({ session }) => (await continueApi()).undoContinuation(core, session),
    listHandoffs: async ({ session, limit }) => core.userData.listHandoffs({ sessionId: session ? core.resolveSession(session) : undefined, limit }),
    autoStatus: async ({ limit }) => (await autoApi()).autoStatus(core.userData.auto, limit),
    setAutoContinue: async (input) => (await autoApi()).setAutoContinue(core.userData.auto, input),
    hooksStatus: async ({ agent }) => {
      const { hooksStatus, hookRuntimeFor, HOOK_AGENTS } = await hooksApi();
      return hooksStatus({ ...hookContext(hookRuntimeFor), agent: agent === 'all' || HOOK_AGENTS.includes(agent) ? agent : 'all' });
    },
    installHooks: async ({ agent, uninstall, dryRun }) => {
      const { installHooks, uninstallHooks, hookRuntimeFor } = await hooksApi();
      return (uninstall ? uninstallHooks : installHooks)({ ...hookContext(hookRuntimeFor), agent, dryRun });
    },
    pinDecision: async ({ session, seq, pinned }) => core.handoff.pinDecision({ sessionId: core.resolveSession(session), seq, pinned }),
    mcpInfo: async () => mcpInfo(),
    regenerateToken: async () => {
      core.tokens.regenerate();
      return mcpInfo();
    },
    installMcp: async (input) => (await installApi()).installMcpForCore(core, input),
    openInAgent: (input) =>
      openAgentInTerminal(
        {
          getSession: (i) => core.api.getSession(i),
          generateBrief: (i) => core.api.generateBrief(i),
          probe: hostProbe(core.environment.platform, core.environment.env, core.environment.home),
          remoteCommand: (session, agent, briefFile, shell) => {
            const label = sessionHost(session.id);
            const wsl = core.environment.platform === 'win32' ? wslPathToLinux(session.sourcePath) : null;
            if (!label && wsl) return { command: wslOpenPowerShell(wsl.distro, session.cwd, agent, briefFile) };
            if (!label) return null;
            const machine = core.settings.get().machines.find((m) => m.enabled && machineLabel(m) === label);
            if (!machine) return { error: `This session is on ${label}, which is not an enabled machine in settings.` };
            return { command: remoteOpenCommand(machine, defaultControlDir(), agent, session.cwd ?? '.', briefFile, shell) };
          },
        },
        input,
      ),
    testMachine: async ({ machine: name }) => {
      const machine = findMachine(core.settings.get().machines, name);
      if (!machine) throw new ApiError('not_found', `No machine ${JSON.stringify(name)} in settings.`);
      return testMachine(machine);
    },
    desktopStatus: async () => core.desktop.get(),
    setSelection: async ({ session, target }) => {
      // Stored as the full id, so a later rename or prefix clash cannot change what it means.
      core.desktop.setSelection(session === null ? null : core.resolveSession(session), target ?? null);
      const chosenTarget = core.desktop.selectionTarget();
      return { session: core.desktop.selection(), ...(chosenTarget ? { target: chosenTarget } : {}) };
    },
    pickFolder: (options) => core.desktop.pickFolder(options),
  };
}
