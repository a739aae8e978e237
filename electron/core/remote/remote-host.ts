/**
 * One remote machine as the laptop sees it: a single persistent `ssh host baton remote-serve
 * --stdio` child, started on first use and again after it dies, carrying every request for that
 * host. While it is down the host is "offline since …": requests fail fast (callers keep what they
 * have), and with subscribers a retry runs every few seconds; coming back announces a change so
 * the index catches up from its saved cursors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { machineLabel } from '../../../shared/machines.js';
import type { AgentId, Diagnostic, SourceStatus } from '../../../shared/model.js';
import type { MachineSettings } from '../../../shared/settings.js';
import type { JsonValue, ReadBatch, SourceUnit } from '../sources/types.js';
import type { GitDrift, GitSnapshot } from '../../../shared/api-types.js';
import type { SnapshotWithFingerprint, WorkTreeFingerprint } from '../git/git-snapshot.js';
import { REMOTE_PROTOCOL, type RemoteHello, type RemoteReply, type RemoteRequest } from './remote-protocol.js';
import { INSTALL_HINT, defaultControlDir, describeSshFailure, remoteServeArgs } from './ssh-command.js';

export interface RemoteHostOptions {
  /** Folder for ssh's shared-connection sockets (default: a per-user temp folder). */
  controlDir?: string;
  /** The ssh program (default `ssh` from PATH: the user's own OpenSSH). */
  ssh?: string;
  /** Retry interval while offline and subscribed (ms, default 5000). */
  retryMs?: number;
}

type Reply = Exclude<RemoteReply, { type: 'changed' }>;
type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = Distribute<RemoteRequest>;

/** Stop reading ssh's stdout while this many replies wait unconsumed (backpressure for big reads). */
const MAX_QUEUED = 64;

export class RemoteHost {
  readonly label: string;
  private child: ChildProcess | null = null;
  private hello: Promise<RemoteHello> | null = null;
  private nextId = 1;
  private readonly handlers = new Map<number, (reply: Reply) => void>();
  private readonly subscribers = new Set<(agents: AgentId[] | null) => void>();
  private retryTimer: NodeJS.Timeout | null = null;
  private queued = 0;
  private closed = false;
  /** When the last connection attempt failed or the connection dropped (ms). */
  private failedAt = 0;
  /** ISO time the host went offline (or first failed), null while connected. */
  offlineSince: string | null = null;
  lastError: string | null = null;

  constructor(
    readonly machine: MachineSettings,
    private readonly opts: RemoteHostOptions = {},
  ) {
    this.label = machineLabel(machine);
  }

  /**
   * Connects (if needed) and returns what the host said about itself. Within the retry interval of
   * a failed attempt it fails at once with that failure: a sync listing several agents of an
   * unreachable host must not wait for a connect timeout per agent (the sync queue is shared).
   */
  connect(force = false): Promise<RemoteHello> {
    if (this.closed) return Promise.reject(new Error('closed'));
    if (!this.hello && !force && this.lastError && Date.now() - this.failedAt < this.retryMs()) {
      return Promise.reject(new Error(this.lastError));
    }
    this.hello ??= this.start();
    return this.hello;
  }

  private retryMs(): number {
    return this.opts.retryMs ?? 5000;
  }

  async list(agent: AgentId): Promise<SourceUnit[]> {
    const hello = await this.connect();
    if (!hello.agents.includes(agent)) return [];
    const reply = await this.once({ op: 'list', agent });
    if (reply.type !== 'units') throw new Error(`${this.label}: unexpected reply ${reply.type}`);
    return reply.units;
  }

  async *read(agent: AgentId, unit: SourceUnit, cursor: JsonValue | null, diagnostic: (d: Omit<Diagnostic, 'at'>) => void): AsyncGenerator<ReadBatch> {
    await this.connect();
    const queue: Reply[] = [];
    let wake: (() => void) | null = null;
    const id = this.send({ op: 'read', agent, unit, cursor }, (reply) => {
      queue.push(reply);
      this.queued++;
      wake?.();
      wake = null;
    });
    try {
      for (;;) {
        if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const reply = queue.shift()!;
        this.consumed();
        if (reply.type === 'batch') yield reply.batch;
        else if (reply.type === 'diagnostic') diagnostic(reply.diagnostic);
        else if (reply.type === 'done') return;
        else if (reply.type === 'error') throw new Error(reply.message);
      }
    } finally {
      this.handlers.delete(id);
      this.queued = Math.max(0, this.queued - queue.length);
      this.resumeIfDrained();
    }
  }

  /** Session counts per agent and the host adapters' status, computed on the host. */
  async count(): Promise<{ counts: Record<string, number>; status: SourceStatus[] }> {
    const reply = await this.once({ op: 'count' });
    if (reply.type !== 'counts') throw new Error(`${this.label}: unexpected reply ${reply.type}`);
    return { counts: reply.counts, status: reply.status };
  }

  /** The git state of `cwd` on the host, taken there. */
  async gitSnapshot(cwd: string | null): Promise<SnapshotWithFingerprint> {
    const reply = await this.once({ op: 'git-snapshot', cwd });
    if (reply.type !== 'git-snapshot') throw new Error(`${this.label}: unexpected reply ${reply.type}`);
    return { snapshot: reply.snapshot, fingerprint: reply.fingerprint };
  }

  /** Drift of `cwd` on the host since `before`, computed there. */
  async gitDrift(cwd: string | null, before: GitSnapshot | null, fingerprint: WorkTreeFingerprint): Promise<GitDrift> {
    const reply = await this.once({ op: 'git-drift', cwd, before, fingerprint });
    if (reply.type !== 'git-drift') throw new Error(`${this.label}: unexpected reply ${reply.type}`);
    return reply.drift;
  }

  /** `onChange(agents)` on pushed changes; `null` = anything may have changed (reconnected). */
  subscribe(onChange: (agents: AgentId[] | null) => void): () => void {
    this.subscribers.add(onChange);
    void this.connect().then(() => this.watch(), () => this.scheduleRetry());
    return () => this.subscribers.delete(onChange);
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.subscribers.clear();
    this.child?.stdin?.end();
    this.child?.kill();
    this.child = null;
  }

  private start(): Promise<RemoteHello> {
    const dir = this.opts.controlDir ?? defaultControlDir();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const child = spawn(this.opts.ssh ?? 'ssh', remoteServeArgs(this.machine, dir), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stdin!.on('error', () => {}); // a dead ssh: its exit reports why
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    let buffer = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) this.dispatch(line);
      }
      if (this.queued > MAX_QUEUED) child.stdout!.pause();
    });
    const exited = new Promise<string>((resolve) => {
      child.on('error', (err) => resolve(`${this.machine.destination}: cannot run ssh (${err.message})`));
      child.on('close', (code) => resolve(describeSshFailure(this.machine.destination, this.machine.command, code, stderr)));
    });
    void exited.then((reason) => this.lost(child, reason));
    const hello = new Promise<RemoteHello>((resolve, reject) => {
      this.send({ op: 'hello' }, (reply) => {
        if (reply.type === 'hello') resolve(reply.hello);
        else reject(new Error(reply.type === 'error' ? reply.message : `unexpected reply ${reply.type}`));
      });
      void exited.then((reason) => reject(new Error(reason)));
    }).then((h) => {
      if (h.protocol !== REMOTE_PROTOCOL) {
        throw new Error(`${this.machine.destination}: Baton ${h.version} there speaks protocol ${h.protocol}, this one ${REMOTE_PROTOCOL}. Update both to the same version (${INSTALL_HINT}).`);
      }
      const wasOffline = this.offlineSince !== null;
      this.offlineSince = null;
      this.lastError = null;
      if (wasOffline) for (const fn of this.subscribers) fn(null);
      return h;
    });
    hello.catch((err: unknown) => {
      this.markOffline(err instanceof Error ? err.message : String(err));
      child.kill();
    });
    return hello;
  }

  private dispatch(line: string): void {
    let reply: RemoteReply;
    try {
      reply = JSON.parse(line) as RemoteReply;
    } catch {
      this.lastError = `${this.label}: unreadable line from the host: ${line.slice(0, 80)}`;
      return;
    }
    if (reply.type === 'changed') {
      for (const fn of this.subscribers) fn(reply.agents);
      return;
    }
    this.handlers.get(reply.id)?.(reply);
  }

  private send(req: Request, onReply: (reply: Reply) => void): number {
    const id = this.nextId++;
    this.handlers.set(id, onReply);
    this.child?.stdin?.write(`${JSON.stringify({ ...req, id })}\n`);
    return id;
  }

  /** One request, one reply (errors become rejections). */
  private async once(req: Request): Promise<Reply> {
    await this.connect();
    return new Promise<Reply>((resolve, reject) => {
      const id = this.send(req, (reply) => {
        this.handlers.delete(id);
        if (reply.type === 'error') reject(new Error(reply.message));
        else resolve(reply);
      });
    });
  }

  private watch(): void {
    if (this.subscribers.size === 0) return;
    const id = this.send({ op: 'watch' }, () => this.handlers.delete(id));
  }

  private consumed(): void {
    if (this.queued > 0) this.queued--;
    this.resumeIfDrained();
  }

  private resumeIfDrained(): void {
    if (this.queued <= MAX_QUEUED / 2) this.child?.stdout?.resume();
  }

  /** The child died: everything waiting on it fails with the reason; the next use reconnects. */
  private lost(child: ChildProcess, reason: string): void {
    if (this.child !== child) return;
    this.child = null;
    this.hello = null;
    this.queued = 0;
    this.markOffline(reason);
    const handlers = [...this.handlers.entries()];
    this.handlers.clear();
    for (const [id, handler] of handlers) handler({ id, type: 'error', message: reason });
    this.scheduleRetry();
  }

  private markOffline(reason: string): void {
    this.offlineSince ??= new Date().toISOString();
    this.lastError = reason;
    this.failedAt = Date.now();
  }

  private scheduleRetry(): void {
    if (this.closed || this.subscribers.size === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect(true).then(() => this.watch(), () => this.scheduleRetry());
    }, this.retryMs());
    this.retryTimer.unref?.();
  }
}
