/**
 * The `ssh` command line Baton runs for a machine, and what its failures mean to a user. Always the
 * user's own OpenSSH with BatchMode (never a prompt Baton could not answer) and connection reuse;
 * host keys are checked as the user's ssh config says (Baton never loosens StrictHostKeyChecking).
 */
import os from 'node:os';
import path from 'node:path';
import { parseDestination } from '../../../shared/machines.js';
import type { MachineSettings } from '../../../shared/settings.js';

/** What to run on a host that has no (or too old a) Baton. */
export const INSTALL_HINT = 'npm install -g baton';

/** Where ssh keeps its shared connections (short: a socket path must fit ~100 bytes). */
export function defaultControlDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `baton-ssh-${uid}`);
}

/** Arguments for `ssh` up to and including the destination (`extra` goes before the destination). */
export function sshBaseArgs(machine: Pick<MachineSettings, 'destination' | 'sshArgs'>, controlDir: string, extra: string[] = []): string[] {
  const { target, port } = parseDestination(machine.destination);
  return [
    '-o', 'BatchMode=yes',
    '-o', 'ControlMaster=auto',
    '-o', `ControlPath=${path.join(controlDir, '%C')}`,
    '-o', 'ControlPersist=60',
    '-o', 'ConnectTimeout=15',
    '-o', 'ServerAliveInterval=15',
    '-o', 'ServerAliveCountMax=3',
    ...(port ? ['-p', String(port)] : []),
    ...machine.sshArgs,
    ...extra,
    '--',
    target,
  ];
}

/** The full argument list that starts `baton remote-serve --stdio` on the host. */
export function remoteServeArgs(machine: Pick<MachineSettings, 'destination' | 'sshArgs' | 'command'>, controlDir: string): string[] {
  return [...sshBaseArgs(machine, controlDir), `${machine.command} remote-serve --stdio`];
}

/** One sentence saying why ssh (or Baton on the host) failed and what to do about it. */
export function describeSshFailure(destination: string, command: string, code: number | null, stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.at(-1) ?? `exit code ${code}`;
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed|No .* host key is known/i.test(stderr)) {
    return `${destination}: host key verification failed (the key is unknown or does not match known_hosts). ` +
      `Baton checks host keys as OpenSSH does: run \`ssh ${destination}\` once to check and accept the key, then retry.`;
  }
  if (/Permission denied/i.test(stderr)) {
    return `${destination}: ssh could not log in without a prompt (${last}). Load your key into ssh-agent or set IdentityFile in ~/.ssh/config.`;
  }
  if (/unknown command 'remote-serve'/.test(stderr)) {
    return `${destination}: the Baton there is too old to serve sessions. Update it there: ${INSTALL_HINT}`;
  }
  if (code === 127 || /command not found|: not found|No such file or directory/i.test(stderr)) {
    return `${destination}: Baton is not installed there (\`${command}\` not found). Install it there: ${INSTALL_HINT}`;
  }
  if (/Connection refused|timed out|Could not resolve|No route to host|Network is unreachable|Connection closed|Connection reset/i.test(stderr)) {
    return `${destination} is unreachable: ${last}`;
  }
  return `${destination}: ssh failed (${last})`;
}
