/**
 * WSL on Windows: a distro's files are reachable from Windows as `\\wsl.localhost\<distro>\…` (older
 * builds: `\\wsl$\<distro>\…`). Baton on Windows reads the agents' stores inside a distro through
 * those paths like local read-only roots, shows the Linux paths the agents recorded, and opens
 * sessions with `wsl.exe -d <distro>`. Pure functions of strings, so they are tested on any OS.
 */
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import { defaultStoreRoots } from '../paths.js';
import { AGENT_PROMPT_ARGS } from '../terminal/agent-command.js';
import { quotePowerShell } from '../terminal/shell-quote.js';

const UNC = /^(?:\\\\|\/\/)(?:wsl\.localhost|wsl\$)[\\/]([^\\/]+)(?:[\\/](.*))?$/i;

export interface WslPath {
  distro: string;
  /** The same file as Linux inside the distro sees it. */
  linuxPath: string;
}

/** `\\wsl.localhost\Ubuntu\home\ana\x` → { distro: 'Ubuntu', linuxPath: '/home/ana/x' }; null for any other path. */
export function wslPathToLinux(windowsPath: string): WslPath | null {
  const m = UNC.exec(windowsPath);
  if (!m) return null;
  const rest = (m[2] ?? '').split(/[\\/]+/).filter(Boolean);
  return { distro: m[1]!, linuxPath: `/${rest.join('/')}` };
}

/** A Linux path inside `distro` as Windows reaches it. */
export function linuxPathToWsl(distro: string, linuxPath: string): string {
  const parts = path.posix.normalize(linuxPath).split('/').filter(Boolean);
  return `\\\\wsl.localhost\\${distro}${parts.length ? `\\${parts.join('\\')}` : ''}`;
}

/** Where an agent keeps its sessions inside a distro (its Linux defaults), as Windows paths. */
export function wslStoreRoots(agent: AgentId, distro: string, linuxHome: string): string[] {
  return defaultStoreRoots(agent, { env: {}, platform: 'linux', home: linuxHome }).map((p) => linuxPathToWsl(distro, p));
}

/** `wsl.exe -l -q` prints UTF-16LE, one distro per line (with a BOM and CRs on some builds). */
export function parseWslDistros(output: Buffer): string[] {
  const utf16 = output.length >= 2 && (output[1] === 0 || (output[0] === 0xff && output[1] === 0xfe));
  const text = utf16 ? output.toString('utf16le') : output.toString('utf8');
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/\0/g, '').trim())
    .filter(Boolean);
}

/**
 * "Open in" for a session recorded inside a distro, as the PowerShell line Windows terminals run:
 * wsl.exe starts the agent directly (after `--`, no Linux shell) in the session's Linux folder, with
 * the brief read on the Windows side as its first prompt, as for a Windows session.
 */
export function wslOpenPowerShell(distro: string, cwd: string | null, agent: AgentId, briefFile: string): string {
  const { bin, before, bare } = AGENT_PROMPT_ARGS[agent];
  // An agent that takes no first prompt starts bare; the brief is pasted.
  if (before === null) return `& ${wslOpenArgv(distro, cwd ?? '~', [bin, ...(bare ?? [])]).map(quotePowerShell).join(' ')}`;
  const argv = wslOpenArgv(distro, cwd ?? '~', [bin, ...before]).map(quotePowerShell).join(' ');
  return `& ${argv} (Get-Content -Raw -LiteralPath ${quotePowerShell(briefFile)})`;
}

/** argv that runs `command` in `cwd` (a Linux path) inside the distro, for "Open in". */
export function wslOpenArgv(distro: string, cwd: string, command: string[]): string[] {
  return ['wsl.exe', '-d', distro, '--cd', cwd, '--', ...command];
}
