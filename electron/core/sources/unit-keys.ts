/**
 * Where a unit key says its store is: a local unit's key is its own path; a unit read from another
 * machine is keyed `ssh://host/agent/<host's key>` (remote/remote-ids.ts builds them), so the index
 * holds both side by side and a local listing never mistakes a remote unit for one of its own.
 */
export const REMOTE_SCHEME = 'ssh://';

/** True for unit keys and paths that name something on another machine. */
export function isRemoteKey(key: string): boolean {
  return key.startsWith(REMOTE_SCHEME);
}

/** The prefix every unit key of (host, agent) starts with. */
export function remoteUnitPrefix(host: string, agent: string): string {
  return `${REMOTE_SCHEME}${host}/${agent}/`;
}
