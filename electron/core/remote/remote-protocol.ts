/**
 * The JSON-lines protocol between the laptop and `baton remote-serve --stdio` on a host, spoken over
 * the stdin/stdout of one `ssh` child. Each request carries an id; its replies carry the same id
 * (a read streams batches, then ends with `done` or `error`). `changed` is pushed, without an id,
 * once the laptop asked to `watch`. Batches and cursors are exactly what the host's own adapters
 * produce, so the laptop's index stores them like local ones.
 */
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { JsonValue, ReadBatch, SourceUnit } from '../sources/types.js';

/** Bumped on any incompatible change; a host speaking another version is reported, not read. */
export const REMOTE_PROTOCOL = 1;

export type RemoteRequest =
  | { id: number; op: 'hello' }
  | { id: number; op: 'list'; agent: AgentId }
  | { id: number; op: 'read'; agent: AgentId; unit: SourceUnit; cursor: JsonValue | null }
  /** Counts the sessions each agent holds on the host (for `baton remote test`); nothing else leaves it. */
  | { id: number; op: 'count' }
  | { id: number; op: 'watch' };

export interface RemoteHello {
  protocol: number;
  version: string;
  /** Agents enabled in the host's own settings, with a reader. */
  agents: AgentId[];
  home: string;
  platform: NodeJS.Platform;
}

export type RemoteReply =
  | { id: number; type: 'hello'; hello: RemoteHello }
  | { id: number; type: 'units'; units: SourceUnit[] }
  | { id: number; type: 'batch'; batch: ReadBatch }
  | { id: number; type: 'diagnostic'; diagnostic: Omit<Diagnostic, 'at'> }
  | { id: number; type: 'counts'; counts: Partial<Record<AgentId, number>>; status: SourceStatus[] }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; message: string }
  /** Pushed after `watch`: something under these agents' stores changed. */
  | { type: 'changed'; agents: AgentId[] };
