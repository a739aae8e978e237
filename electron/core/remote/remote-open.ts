/**
 * "Open in agent" for a session on another machine. Nothing from the session goes into a command
 * line the host's shell parses: the host's login shell may be sh, bash, zsh or fish (or older fish
 * without `&&` and `$(…)`), and a folder name would have to survive the user's shell, ssh's joining
 * of its arguments and that unknown shell. Instead a small launcher script, holding the folder and
 * the brief, is sent over ssh's stdin into `~/.cache/baton-briefs/` and run there by `sh` (which
 * every Unix host has): only the script's fixed file name appears on the command lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import type { MachineSettings } from '../../../shared/settings.js';
import { AGENT_PROMPT_ARGS } from '../terminal/agent-command.js';
import { changeDirectory, quotePosix, quotePowerShell, type ShellKind } from '../terminal/shell-quote.js';
import { sshBaseArgs } from './ssh-command.js';

/** Under the host user's home. */
const HOST_BRIEF_DIR = '.cache/baton-briefs';

/**
 * The script `sh` runs on the host: removes itself (it holds the brief), changes to the session's
 * folder (stops there if it is gone) and replaces itself with the agent, the brief as its first prompt.
 */
export function remoteLauncherScript(agent: AgentId, cwd: string, brief: string): string {
  const { bin, before, bare } = AGENT_PROMPT_ARGS[agent];
  // An agent that takes no first prompt starts bare there; the brief is pasted.
  const exec = before === null ? [bin, ...(bare ?? [])].join(' ') : `${[bin, ...before].join(' ')} ${quotePosix(brief.replace(/\0/g, ''))}`;
  return [
    '# Baton: start the agent in the session folder with the brief as its first prompt.',
    'rm -f -- "$0"',
    `${changeDirectory('posix', cwd)} || exit 1`,
    // NUL cannot be in an argument; nothing else needs care inside the quoting.
    `exec ${exec}`,
    '',
  ].join('\n');
}

/**
 * Writes the launcher beside the local brief file (same private directory, same name with `.sh`)
 * and returns the command line that copies it to the host and runs it there with `ssh -t`.
 */
export function remoteOpenCommand(
  machine: Pick<MachineSettings, 'destination' | 'sshArgs'>,
  controlDir: string,
  agent: AgentId,
  cwd: string,
  localBriefFile: string,
  shell: ShellKind,
): string {
  const launcher = localBriefFile.replace(/\.md$/, '') + '.sh';
  fs.writeFileSync(launcher, remoteLauncherScript(agent, cwd, fs.readFileSync(localBriefFile, 'utf8')), { mode: 0o600, flag: 'wx' });
  const name = path.basename(launcher);
  // Baton names these files itself; the check keeps the command lines free of anything to quote.
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`unexpected launcher file name: ${name}`);
  const hostFile = `${HOST_BRIEF_DIR}/${name}`;
  // Fixed text with no `'`, `\` or `"` inside the single quotes: every login shell hands it to sh
  // unchanged, and Windows PowerShell 5.1 passes it to ssh.exe intact (it mangles embedded `"`).
  // A bare `cd` goes to $HOME.
  const upload = `sh -c 'umask 077 && cd && mkdir -p ${HOST_BRIEF_DIR} && cat > ${hostFile}'`;
  const run = `sh -c 'cd && exec sh ${hostFile}'`;
  const ssh = (extra: string[]) => sshBaseArgs(machine, controlDir, extra);
  if (shell === 'posix') {
    const line = (args: string[]) => ['ssh', ...args].map(quotePosix).join(' ');
    return `${line([...ssh([]), upload])} < ${quotePosix(launcher)} && ${line([...ssh(['-t']), run])}`;
  }
  const line = (args: string[]) => `& ${['ssh', ...args].map(quotePowerShell).join(' ')}`;
  return `Get-Content -Raw -LiteralPath ${quotePowerShell(launcher)} | ${line([...ssh([]), upload])}; if ($?) { ${line([...ssh(['-t']), run])} }`;
}
