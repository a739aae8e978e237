/** How a brief speaks to each receiving agent: its tool names and the command that opens it. */
import type { BriefTarget, MachineSettings } from '../../../shared/settings.js';
import { parseDestination } from '../../../shared/machines.js';
import { changeDirectory, quotePosix } from '../terminal/shell-quote.js';

export interface TargetProfile {
  label: string;
  /** How to tell this agent to read, edit and run things. */
  read: string;
  edit: string;
  shell: string;
  /** Executable that starts the agent, null for the generic target. */
  command: string | null;
}

export const TARGETS: Record<BriefTarget, TargetProfile> = {
  generic: { label: 'any coding agent', read: 'open', edit: 'edit', shell: 'run', command: null },
  claude: { label: 'Claude Code', read: 'use the Read tool on', edit: 'change them with Edit/Write', shell: 'run with the Bash tool', command: 'claude' },
  codex: { label: 'Codex CLI', read: 'inspect (e.g. `sed -n` through exec_command)', edit: 'change them with apply_patch', shell: 'run through exec_command', command: 'codex' },
  opencode: { label: 'OpenCode', read: 'use the read tool on', edit: 'change them with the edit/write/patch tools', shell: 'run with the bash tool', command: 'opencode' },
  hermes: { label: 'Hermes Agent', read: 'use read_file on', edit: 'change them with patch/write_file', shell: 'run with the terminal tool', command: 'hermes' },
  gemini: { label: 'Gemini CLI', read: 'use read_file on', edit: 'change them with replace/write_file', shell: 'run with run_shell_command', command: 'gemini' },
  qwen: { label: 'Qwen Code', read: 'use read_file on', edit: 'change them with edit/write_file', shell: 'run with run_shell_command', command: 'qwen' },
  pi: { label: 'pi', read: 'use the read tool on', edit: 'change them with the edit/write tools', shell: 'run with the bash tool', command: 'pi' },
  cline: { label: 'Cline', read: 'use read_files on', edit: 'change them with the editor tool', shell: 'run with run_commands', command: 'cline' },
  kilo: { label: 'Kilo Code', read: 'use the read tool on', edit: 'change them with the edit/write tools', shell: 'run with the bash tool', command: 'kilo' },
  copilot: { label: 'GitHub Copilot CLI', read: 'use the view tool on', edit: 'change them with the edit/create tools', shell: 'run with the bash tool', command: 'copilot' },
  continue: { label: 'Continue', read: 'use the Read tool on', edit: 'change them with Edit/Write', shell: 'run with the Bash tool', command: 'cn' },
  droid: { label: 'Factory Droid', read: 'use the Read tool on', edit: 'change them with Edit/Create', shell: 'run with the Execute tool', command: 'droid' },
  letta: { label: 'Letta Code', read: 'use the Read tool on', edit: 'change them with Edit/Write', shell: 'run with the Bash tool', command: 'letta' },
};

/** Quoting read back verbatim by sh, bash, dash, zsh and fish (see terminal/shell-quote.ts). */
export const shellQuote = quotePosix;

export function openCommand(target: BriefTarget, cwd: string | null, host: Pick<MachineSettings, 'destination' | 'sshArgs'> | null = null): string | null {
  const command = TARGETS[target].command;
  if (!command) return null;
  const local = cwd ? `${changeDirectory('posix', cwd)} && ${command}` : command;
  if (!host) return local;
  // A session on another machine opens there, over the user's ssh. The host's login shell (any of
  // sh, bash, zsh, fish) reads `local`; the user's shell (the same kinds) reads the quoted line, and
  // the quoting reads the same in all of them, so two levels of it hold.
  const { target: destination, port } = parseDestination(host.destination);
  return ['ssh', '-t', ...(port ? ['-p', String(port)] : []), ...host.sshArgs.map(shellQuote), '--', shellQuote(destination), shellQuote(local)].join(' ');
}
