/**
 * The command line that starts an agent's interactive CLI with a brief as its first prompt, read
 * from a file so the brief never has to survive shell quoting (see agent-storage-formats.md §2.7,
 * §3.7, §4.6, §5.7).
 */
import type { AgentId } from '../../../shared/model.js';
import { changeDirectory, quotePosix, quotePowerShell, type ShellKind } from './shell-quote.js';

export type { ShellKind };

/**
 * Executable and the arguments that come before the prompt, per agent; `before: null` for an agent
 * whose interactive CLI takes no first prompt on its command line (it starts bare, and the brief is
 * pasted or handed over by its start-up hook).
 */
export const AGENT_PROMPT_ARGS: Record<AgentId, { bin: string; before: readonly string[] | null; bare?: readonly string[] }> = {
  claude: { bin: 'claude', before: [] },
  codex: { bin: 'codex', before: [] },
  opencode: { bin: 'opencode', before: ['--prompt'] },
  hermes: { bin: 'hermes', before: ['chat', '-q'] },
  gemini: { bin: 'gemini', before: ['-i'] },
  qwen: { bin: 'qwen', before: ['-i'] },
  pi: { bin: 'pi', before: [] },
  cline: { bin: 'cline', before: ['-i'] },
  kilo: { bin: 'kilo', before: ['--prompt'] },
  copilot: { bin: 'copilot', before: ['-i'] },
  continue: { bin: 'cn', before: [] },
  droid: { bin: 'droid', before: [] },
  // letta-code 0.32 reads a first positional as a subcommand: its TUI starts bare (a new conversation).
  letta: { bin: 'letta', before: null, bare: ['--new'] },
};


/**
 * `claude "$(cat '/tmp/brief.md')"` (sh) or `claude (Get-Content -Raw -LiteralPath '…')` (PowerShell);
 * the bare `claude` when there is no brief file (a hook hands the brief over instead).
 */
export function agentPromptCommand(agent: AgentId, briefFile: string | null, shell: ShellKind): string {
  const { bin, before, bare } = AGENT_PROMPT_ARGS[agent];
  if (briefFile === null || before === null) return [bin, ...(bare ?? [])].join(' ');
  const head = [bin, ...before].join(' ');
  if (shell === 'posix') return `${head} "$(cat ${quotePosix(briefFile)})"`;
  return `${head} (Get-Content -Raw -LiteralPath ${quotePowerShell(briefFile)})`;
}

/** The whole command a user can paste into a terminal: change to the cwd, then start the agent. */
export function copyableCommand(agent: AgentId, cwd: string, briefFile: string | null, shell: ShellKind): string {
  if (shell === 'posix') return `${changeDirectory('posix', cwd)} && ${agentPromptCommand(agent, briefFile, 'posix')}`;
  return `${changeDirectory('powershell', cwd)}; ${agentPromptCommand(agent, briefFile, 'powershell')}`;
}

/** Whether the agent's CLI can be started with the brief as its first prompt. */
export function takesFirstPrompt(agent: AgentId): boolean {
  return AGENT_PROMPT_ARGS[agent].before !== null;
}
