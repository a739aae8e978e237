/**
 * A remote machine as SourceAdapters, one per agent, all sharing one RemoteHost connection. Units
 * and batches come from the host's own adapters; here they get host-qualified names (remote-ids.ts),
 * so the index keeps cursors per unit and resumes after a reconnect without duplicates. While the
 * host is offline, listing fails: the index then keeps the host's sessions as they are.
 */
import { AGENTS, type AgentId, type SourceStatus } from '../../../shared/model.js';
import type { MachineSettings } from '../../../shared/settings.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../sources/types.js';
import { RemoteHost, type RemoteHostOptions } from './remote-host.js';
import { remotePath, remoteUnitPrefix, toLaptopBatch, toLaptopUnit } from './remote-ids.js';

/**
 * One adapter per agent of the shared list (or the machine's own choice): an agent the host does not
 * read lists nothing (its hello says which it reads), so no agent is left out on this side.
 */
export function createRemoteAdapters(machine: MachineSettings, opts: RemoteHostOptions = {}): SourceAdapter[] {
  const host = new RemoteHost(machine, opts);
  const agents = machine.agents ?? AGENTS;
  let open = agents.length;
  // The connection closes with the last of its adapters.
  const release = () => {
    if (--open === 0) host.close();
  };
  return agents.map((agent) => new RemoteAdapter(host, agent, release));
}

class RemoteAdapter implements SourceAdapter {
  readonly host: string;
  /** Laptop unit key → the host's own unit, as last listed. */
  private readonly units = new Map<string, SourceUnit>();
  private readonly sessions = new Set<string>();
  private messages = 0;
  private filesRead = 0;
  private lastReadAt: string | null = null;

  constructor(
    private readonly remote: RemoteHost,
    readonly agent: AgentId,
    private readonly release: () => void,
  ) {
    this.host = remote.label;
  }

  roots(): string[] {
    return []; // nothing local to watch: the host pushes its changes (subscribe)
  }

  async listUnits(): Promise<SourceUnit[]> {
    const units = await this.remote.list(this.agent);
    this.units.clear();
    return units.map((u) => {
      const laptop = toLaptopUnit(this.host, this.agent, u);
      this.units.set(laptop.key, u);
      return laptop;
    });
  }

  async *read(unit: SourceUnit, ctx: ReadContext): AsyncIterable<ReadBatch> {
    const own = this.units.get(unit.key) ?? {
      ...unit,
      key: unit.key.slice(remoteUnitPrefix(this.host, this.agent).length),
      path: unit.path.slice(remotePath(this.host, '').length - 1),
    };
    this.filesRead++;
    for await (const batch of this.remote.read(this.agent, own, ctx.cursor, (d) => ctx.diagnostic({ ...d, file: remotePath(this.host, d.file) }))) {
      const laptop = toLaptopBatch(this.host, batch);
      for (const s of laptop.sessions) this.sessions.add(s.id);
      this.messages += laptop.messages.length;
      this.lastReadAt = new Date().toISOString();
      yield laptop;
      if (ctx.signal?.aborted) return;
    }
  }

  subscribe(onChange: () => void): () => void {
    return this.remote.subscribe((agents) => {
      if (agents === null || agents.includes(this.agent)) onChange();
    });
  }

  close(): void {
    this.release();
  }

  status(): SourceStatus {
    const offline = this.remote.offlineSince;
    return {
      agent: this.agent,
      host: this.host,
      state: offline ? 'unreadable' : 'ok',
      roots: [remotePath(this.host, '')],
      sessions: this.sessions.size,
      messages: this.messages,
      filesRead: this.filesRead,
      skippedLines: 0,
      lastError: offline ? `host offline since ${offline}: ${this.remote.lastError ?? ''}` : this.remote.lastError,
      lastReadAt: this.lastReadAt,
      diagnostics: [],
    };
  }
}
