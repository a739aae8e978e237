/**
 * Naming of remote machines: how a settings destination (`devbox`, `me@10.0.0.5:2222`) becomes the
 * label in session ids and the arguments `ssh` takes. Pure: used by the core, the CLI and the UI.
 */
import type { MachineSettings } from './settings.js';

export interface SshDestination {
  /** What `ssh` connects to: an alias or `user@host`. */
  target: string;
  port: number | null;
}

/** `user@host:port` → target `user@host`, port; an alias or bare host stays as it is. */
export function parseDestination(destination: string): SshDestination {
  const m = /^(.*):(\d{1,5})$/.exec(destination);
  if (m && !m[1]!.includes(':')) return { target: m[1]!, port: Number(m[2]) };
  return { target: destination, port: null };
}

/** The label a machine's sessions carry: its own label, else the host part of its destination. */
export function machineLabel(machine: Pick<MachineSettings, 'destination' | 'label'>): string {
  if (machine.label) return machine.label;
  const { target } = parseDestination(machine.destination);
  const host = target.slice(target.lastIndexOf('@') + 1);
  return host.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64) || 'host';
}

/** The host part of a session id (`devbox/claude:…` → `devbox`), or null for this machine's session. */
export function sessionHost(id: string): string | null {
  const colon = id.indexOf(':');
  const slash = id.indexOf('/');
  return slash > 0 && (colon < 0 || slash < colon) ? id.slice(0, slash) : null;
}
