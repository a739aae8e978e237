/**
 * Which terminal to open and the exact process to spawn so it runs an agent in a directory, per
 * platform. Pure: the file system and PATH are passed in, so every platform is testable anywhere.
 */
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import { AGENT_LABELS } from '../../../shared/model.js';
import { copyableCommand } from './agent-command.js';
import { escapeWindowsTerminalArg, quoteAppleScript } from './shell-quote.js';

export const TERMINALS = {
  darwin: ['iterm', 'terminal-app'],
  win32: ['windows-terminal', 'powershell'],
  linux: ['x-terminal-emulator', 'gnome-terminal', 'konsole', 'xterm'],
} as const;
export type TerminalId = (typeof TERMINALS)[keyof typeof TERMINALS][number];

export interface TerminalChoice {
  id: TerminalId;
  /** Executable to spawn (absolute when found on PATH). */
  file: string;
}

export interface HostProbe {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** True when `file` exists and is a regular file (executability is not checked on Windows). */
  isFile(file: string): boolean;
  isDirectory(dir: string): boolean;
}

/** First `name` (with PATHEXT on Windows) found in PATH, or null. */
export function findOnPath(name: string, probe: HostProbe): string | null {
  const win = probe.platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const pathVar = probe.env.PATH ?? probe.env.Path ?? '';
  const exts = win ? (probe.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  for (const dir of pathVar.split(win ? ';' : ':')) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = p.join(dir, name + ext.toLowerCase());
      if (probe.isFile(candidate)) return candidate;
    }
  }
  return null;
}

function platformTerminals(platform: NodeJS.Platform): readonly TerminalId[] {
  if (platform === 'darwin' || platform === 'win32') return TERMINALS[platform];
  return TERMINALS.linux;
}

function locate(id: TerminalId, probe: HostProbe): string | null {
  switch (id) {
    case 'terminal-app':
      return '/usr/bin/osascript';
    case 'iterm': {
      const apps = ['/Applications/iTerm.app', path.posix.join(probe.home, 'Applications', 'iTerm.app')];
      return apps.some((app) => probe.isDirectory(app)) ? '/usr/bin/osascript' : null;
    }
    case 'windows-terminal':
      return findOnPath('wt', probe);
    case 'powershell':
      return findOnPath('powershell', probe) ?? 'powershell.exe';
    default:
      return findOnPath(id, probe);
  }
}

/**
 * The terminal to use: `BATON_TERMINAL` when it names one of this platform's terminals and it is
 * present, otherwise the first present one in the platform's order. Null when none is found.
 */
export function chooseTerminal(probe: HostProbe): TerminalChoice | null {
  const candidates = platformTerminals(probe.platform);
  const wanted = probe.env.BATON_TERMINAL;
  const ordered = wanted && (candidates as readonly string[]).includes(wanted)
    ? [wanted as TerminalId, ...candidates.filter((c) => c !== wanted)]
    : candidates;
  for (const id of ordered) {
    const file = locate(id, probe);
    if (file) return { id, file };
  }
  return null;
}

export interface LaunchRequest {
  agent: AgentId;
  cwd: string;
  /** The brief as first prompt; null starts the agent bare (its start-up hook delivers the brief). */
  briefFile: string | null;
  /** The command to run instead of starting the agent here (a session on another machine: ssh -t). */
  command?: string;
}

export interface LaunchPlan {
  terminal: TerminalId;
  file: string;
  args: string[];
  cwd: string;
  /** What the terminal runs, as the user could paste it themselves. */
  command: string;
}

/** POSIX script run inside the new terminal: the command, and on failure a pause so the error stays readable. */
export function holdOnFailure(command: string): string {
  return `${command} || { s=$?; printf '\\n[Baton] The command exited with status %s. Press Enter to close. ' "$s"; read _; }`;
}

export function shellKindFor(platform: NodeJS.Platform): 'posix' | 'powershell' {
  return platform === 'win32' ? 'powershell' : 'posix';
}

export function planLaunch(request: LaunchRequest, terminal: TerminalChoice, platform: NodeJS.Platform): LaunchPlan {
  const { agent, cwd, briefFile } = request;
  const command = request.command ?? copyableCommand(agent, cwd, briefFile, shellKindFor(platform));
  const base = { terminal: terminal.id, file: terminal.file, cwd, command };
  const title = `Baton → ${AGENT_LABELS[agent]}`;
  switch (terminal.id) {
    case 'terminal-app':
      return {
        ...base,
        args: ['-e', 'tell application "Terminal"', '-e', 'activate', '-e', `do script ${quoteAppleScript(command)}`, '-e', 'end tell'],
      };
    case 'iterm':
      return {
        ...base,
        args: [
          '-e', 'tell application "iTerm"',
          '-e', 'activate',
          '-e', 'set batonWindow to (create window with default profile)',
          '-e', `tell current session of batonWindow to write text ${quoteAppleScript(command)}`,
          '-e', 'end tell',
        ],
      };
    case 'windows-terminal':
      // wt.exe treats `;` as its own command separator: every argument is escaped.
      return {
        ...base,
        args: ['-w', 'new', '--title', title, '-d', cwd, 'powershell.exe', '-NoExit', '-Command', command].map(escapeWindowsTerminalArg),
      };
    case 'powershell':
      return { ...base, args: ['-NoExit', '-Command', command] };
    case 'gnome-terminal':
      return { ...base, args: ['--title', title, '--working-directory', cwd, '--', 'sh', '-c', holdOnFailure(command)] };
    case 'konsole':
      return { ...base, args: ['--workdir', cwd, '-e', 'sh', '-c', holdOnFailure(command)] };
    case 'xterm':
      return { ...base, args: ['-T', title, '-e', 'sh', '-c', holdOnFailure(command)] };
    case 'x-terminal-emulator':
      return { ...base, args: ['-e', 'sh', '-c', holdOnFailure(command)] };
  }
}
