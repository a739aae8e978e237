/**
 * "Open in agent" for a session on another machine: the brief (rendered on the laptop from the
 * host's session) is copied to the host's `~/.cache/baton-briefs/` over the user's ssh, then
 * `ssh -t` opens the agent there in the session's folder with the brief as its first prompt.
 * One command line the local terminal runs, or the user pastes.
 */
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import type { MachineSettings } from '../../../shared/settings.js';
import { AGENT_PROMPT_ARGS, type ShellKind } from '../terminal/agent-command.js';
import { quotePosix, quotePowerShell } from '../terminal/shell-quote.js';
import { sshBaseArgs } from './ssh-command.js';

/** Under the host user's home. */
const HOST_BRIEF_DIR = '.cache/baton-briefs';

export function remoteOpenCommand(
  machine: Pick<MachineSettings, 'destination' | 'sshArgs'>,
  controlDir: string,
  agent: AgentId,
  cwd: string,
  localBriefFile: string,
  shell: ShellKind,
): string {
  // Run by the host's shell: $HOME expands there, the file name stays literal.
  const hostFile = `"$HOME"/${HOST_BRIEF_DIR}/${quotePosix(path.basename(localBriefFile))}`;
  const upload = `umask 077 && mkdir -p "$HOME"/${HOST_BRIEF_DIR} && cat > ${hostFile}`;
  const { bin, before } = AGENT_PROMPT_ARGS[agent];
  const run = `cd ${quotePosix(cwd)} && ${[bin, ...before].join(' ')} "$(cat ${hostFile})"`;
  const ssh = (extra: string[]) => sshBaseArgs(machine, controlDir, extra);
  if (shell === 'posix') {
    const line = (args: string[]) => ['ssh', ...args].map(quotePosix).join(' ');
    return `${line([...ssh([]), upload])} < ${quotePosix(localBriefFile)} && ${line([...ssh(['-t']), run])}`;
  }
  const line = (args: string[]) => `& ${['ssh', ...args].map(quotePowerShell).join(' ')}`;
  return `Get-Content -Raw -LiteralPath ${quotePowerShell(localBriefFile)} | ${line([...ssh([]), upload])}; if ($?) { ${line([...ssh(['-t']), run])} }`;
}
