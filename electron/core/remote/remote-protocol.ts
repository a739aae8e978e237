/**
 * The JSON-lines protocol between the laptop and `baton remote-serve --stdio` on a host, spoken over
 * the stdin/stdout of one `ssh` child. Each request carries an id; its replies carry the same id
 * (a read streams batches, then ends with `done` or `error`). `changed` is pushed, without an id,
 * once the laptop asked to `watch`. Batches and cursors are exactly what the host's own adapters
 * produce, so the laptop's index stores them like local ones.
 */
import type { GitDrift, GitSnapshot } from '../../../shared/api-types.js';
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { WorkTreeFingerprint } from '../git/git-snapshot.js';
import type { JsonValue, ReadBatch, SourceUnit } from '../sources/types.js';

/** Bumped on any incompatible change; a host speaking another version is reported, not read. */
export const REMOTE_PROTOCOL = 1;

export type RemoteRequest =
  | { id: number; op: 'hello' }
  | { id: number; op: 'list'; agent: AgentId }
  | { id: number; op: 'read'; agent: AgentId; unit: SourceUnit; cursor: JsonValue | null }
  /** Counts the sessions each agent holds on the host (for `baton remote test`); nothing else leaves it. */
  | { id: number; op: 'count' }
  | { id: number; op: 'watch' }
  /** The git state of a session's folder on the host (for checkpoints and briefs of host sessions). */
  | { id: number; op: 'git-snapshot'; cwd: string | null }
  /** What changed in that folder on the host since a checkpoint's snapshot. */
  | { id: number; op: 'git-drift'; cwd: string | null; before: GitSnapshot | null; fingerprint: WorkTreeFingerprint };

export interface RemoteHello {
  protocol: number;
  version: string;
  /**
   * Agents enabled in the host's own settings, with a reader. Plain names on the wire: a newer host
   * may read agents this Baton does not know yet (they are reported, not read).
   */
  agents: string[];
  home: string;
  platform: NodeJS.Platform;
}

export type RemoteReply =
  | { id: number; type: 'hello'; hello: RemoteHello }
  | { id: number; type: 'units'; units: SourceUnit[] }
  | { id: number; type: 'batch'; batch: ReadBatch }
  | { id: number; type: 'diagnostic'; diagnostic: Omit<Diagnostic, 'at'> }
  | { id: number; type: 'counts'; counts: Record<string, number>; status: SourceStatus[] }
  | { id: number; type: 'git-snapshot'; snapshot: GitSnapshot; fingerprint: WorkTreeFingerprint }
  | { id: number; type: 'git-drift'; drift: GitDrift }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; message: string }
  /** Pushed after `watch`: something under these agents' stores changed. */
  | { type: 'changed'; agents: AgentId[] };
