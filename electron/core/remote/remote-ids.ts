/**
 * How a host's sessions and units are named on the laptop: session ids become `host/agent:nativeId`
 * and unit keys `ssh://host/agent/<host's key>`, so the index stores them beside local ones without
 * collisions, and a local listing never mistakes a remote unit for one of its own (and vice versa).
 */
import type { Session, UsageEvent } from '../../../shared/model.js';
import type { ReadBatch, SourceUnit } from '../sources/types.js';
import { REMOTE_SCHEME, remoteUnitPrefix } from '../sources/unit-keys.js';

export { isRemoteKey, REMOTE_SCHEME, remoteUnitPrefix } from '../sources/unit-keys.js';

export function remoteSessionId(host: string, id: string): string {
  return `${host}/${id}`;
}

export { sessionHost } from '../../../shared/machines.js';

/** A host path as shown on the laptop: `ssh://devbox/home/me/.claude/…`. */
export function remotePath(host: string, hostPath: string): string {
  return `${REMOTE_SCHEME}${host}${hostPath.startsWith('/') ? '' : '/'}${hostPath}`;
}

export function toLaptopUnit(host: string, agent: string, unit: SourceUnit): SourceUnit {
  return { ...unit, key: remoteUnitPrefix(host, agent) + unit.key, path: remotePath(host, unit.path) };
}

/** Rewrites every id a batch carries to its host-qualified form. */
export function toLaptopBatch(host: string, batch: ReadBatch): ReadBatch {
  const id = (s: string) => remoteSessionId(host, s);
  const session = (s: Session): Session => ({
    ...s,
    id: id(s.id),
    parentId: s.parentId === null ? null : id(s.parentId),
    sourcePath: remotePath(host, s.sourcePath),
  });
  const usage = (u: UsageEvent): UsageEvent => ({ ...u, sessionId: id(u.sessionId) });
  return {
    ...batch,
    sessions: batch.sessions.map(session),
    messages: batch.messages.map((m) => ({ ...m, sessionId: id(m.sessionId) })),
    resetSessions: batch.resetSessions.map(id),
    goneSessions: batch.goneSessions.map(id),
    ...(batch.usage ? { usage: batch.usage.map(usage) } : {}),
  };
}
