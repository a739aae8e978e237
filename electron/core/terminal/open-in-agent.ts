/**
 * The `openInAgent` call: render the session's brief for the target agent, put it in a private
 * temp file and open a new terminal in the session's cwd that starts the agent with the brief as
 * its first prompt. The exact command always comes back, so the UI can offer it to copy when no
 * terminal could be opened.
 */
import fs from 'node:fs';
import type { AgentId, Session } from '../../../shared/model.js';
import type { BriefResult, OpenInAgentResult } from '../../../shared/api-types.js';
import { parseApiInput, type ApiParsedInput } from '../../../shared/contract.js';
import { writeBriefFile, briefDir } from './brief-file.js';
import { chooseTerminal, planLaunch, shellKindFor, type HostProbe, type LaunchPlan } from './terminal-plan.js';
import { copyableCommand, takesFirstPrompt, type ShellKind } from './agent-command.js';
import { launchTerminal, type LaunchOutcome } from './launcher.js';

export interface OpenInAgentDeps {
  getSession(input: ApiParsedInput<'getSession'>): Promise<Session>;
  generateBrief(input: ApiParsedInput<'generateBrief'>): Promise<BriefResult>;
  probe: HostProbe;
  /** Where brief files go (default: `<tmp>/baton-briefs`). */
  briefDir?: string;
  launch?(plan: LaunchPlan): Promise<LaunchOutcome>;
  /**
   * For a session on another machine: the command that opens the agent there (ssh -t), or an error
   * saying why it cannot be opened; null for this machine's sessions.
   */
  remoteCommand?(session: Session, agent: AgentId, briefFile: string, shell: ShellKind): { command: string } | { error: string } | null;
}

export function hostProbe(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): HostProbe {
  const stat = (p: string) => {
    try {
      return fs.statSync(p);
    } catch {
      return null;
    }
  };
  return {
    platform,
    env,
    home,
    isFile: (file) => stat(file)?.isFile() ?? false,
    isDirectory: (dir) => stat(dir)?.isDirectory() ?? false,
  };
}

/** Opens a terminal in `cwd` running `agent`, with the brief file as first prompt or bare. */
export async function launchAgentIn(
  deps: Pick<OpenInAgentDeps, 'probe' | 'launch'>,
  request: { agent: AgentId; cwd: string; briefFile: string | null; command?: string },
): Promise<OpenInAgentResult> {
  const { probe } = deps;
  const terminal = chooseTerminal(probe);
  if (!terminal) {
    return {
      command: request.command ?? copyableCommand(request.agent, request.cwd, request.briefFile, shellKindFor(probe.platform)),
      launched: false,
      error: 'No terminal found to open. Copy the command and run it in a terminal of your choice.',
    };
  }
  const plan = planLaunch(request, terminal, probe.platform);
  const outcome = await (deps.launch ?? ((p: LaunchPlan) => launchTerminal(p, probe.env)))(plan);
  return { command: plan.command, launched: outcome.launched, error: outcome.error };
}

export async function openInAgent(deps: OpenInAgentDeps, input: { session: string; target: AgentId }): Promise<OpenInAgentResult> {
  const session = await deps.getSession({ session: input.session });
  const brief = await deps.generateBrief(parseApiInput('generateBrief', { session: session.id, target: input.target, format: 'md' }));
  const { probe } = deps;
  const briefFile = writeBriefFile(brief.text, input.target, deps.briefDir ?? briefDir());
  const remote = deps.remoteCommand?.(session, input.target, briefFile, shellKindFor(probe.platform)) ?? null;
  if (remote && 'error' in remote) return { command: '', launched: false, error: remote.error };
  // A session whose directory is gone still opens, in the home directory (a host's session: the terminal starts here, at home).
  const cwd = !remote && session.cwd && probe.isDirectory(session.cwd) ? session.cwd : probe.home;
  const opened = await launchAgentIn(deps, { agent: input.target, cwd, briefFile, command: remote?.command });
  return takesFirstPrompt(input.target) ? opened : { ...opened, pasteBrief: true };
}
