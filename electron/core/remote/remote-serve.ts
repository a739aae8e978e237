/**
 * The host side of a remote connection (`baton remote-serve --stdio`): answers the laptop's requests
 * with the host's own adapters, over stdin/stdout. It only ever sends what was asked for (units,
 * batches, counts) and reads nothing from the laptop but requests; it opens no port.
 */
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AgentId } from '../../../shared/model.js';
import type { SourceAdapter } from '../sources/types.js';
import { StoreWatcher } from '../watch/store-watcher.js';
import { takeGitSnapshot } from '../git/git-snapshot.js';
import { computeGitDrift } from '../git/git-drift.js';
import { REMOTE_PROTOCOL, type RemoteHello, type RemoteReply, type RemoteRequest } from './remote-protocol.js';

export interface RemoteServeOptions {
  adapters: SourceAdapter[];
  version: string;
  home: string;
  platform: NodeJS.Platform;
  /** Debounce for the host's watcher (ms). */
  debounceMs?: number;
}

/** Serves requests from `input` until it ends; resolves once every reply is written. */
export async function serveRemote(input: Readable, output: Writable, opts: RemoteServeOptions): Promise<void> {
  const byAgent = new Map(opts.adapters.map((a) => [a.agent, a] as const));
  let watcher: StoreWatcher | null = null;
  const running = new Set<Promise<void>>();

  const send = async (reply: RemoteReply): Promise<void> => {
    if (!output.write(`${JSON.stringify(reply)}\n`)) await new Promise<void>((resolve) => output.once('drain', resolve));
  };
  const adapterFor = (agent: AgentId): SourceAdapter => {
    const adapter = byAgent.get(agent);
    if (!adapter) throw new Error(`${agent} is not enabled on this host`);
    return adapter;
  };

  const handle = async (req: RemoteRequest): Promise<void> => {
    switch (req.op) {
      case 'hello': {
        const hello: RemoteHello = { protocol: REMOTE_PROTOCOL, version: opts.version, agents: [...byAgent.keys()], home: opts.home, platform: opts.platform };
        return send({ id: req.id, type: 'hello', hello });
      }
      case 'list':
        return send({ id: req.id, type: 'units', units: await adapterFor(req.agent).listUnits() });
      case 'read': {
        const pending: Promise<void>[] = [];
        const batches = adapterFor(req.agent).read(req.unit, {
          cursor: req.cursor,
          diagnostic: (diagnostic) => void pending.push(send({ id: req.id, type: 'diagnostic', diagnostic })),
        });
        for await (const batch of batches) await send({ id: req.id, type: 'batch', batch });
        await Promise.all(pending);
        return send({ id: req.id, type: 'done' });
      }
      case 'count': {
        const counts: Record<string, number> = {};
        for (const adapter of opts.adapters) counts[adapter.agent] = await countSessions(adapter);
        return send({ id: req.id, type: 'counts', counts, status: opts.adapters.map((a) => a.status()) });
      }
      case 'git-snapshot': {
        const { snapshot, fingerprint } = await takeGitSnapshot(req.cwd, new Date());
        return send({ id: req.id, type: 'git-snapshot', snapshot, fingerprint });
      }
      case 'git-drift':
        return send({ id: req.id, type: 'git-drift', drift: await computeGitDrift(req.cwd, req.before, req.fingerprint, new Date()) });
      case 'watch': {
        // Not awaited: chokidar never reports ready when no root exists yet, and a request must end.
        if (!watcher) {
          watcher = startWatcher(opts, (agents) => void send({ type: 'changed', agents }));
          void watcher.start();
        }
        return send({ id: req.id, type: 'done' });
      }
    }
  };

  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let req: RemoteRequest;
    try {
      req = JSON.parse(line) as RemoteRequest;
    } catch {
      await send({ id: -1, type: 'error', message: `not a JSON request: ${line.slice(0, 80)}` });
      continue;
    }
    const task = handle(req)
      .catch((err: unknown) => send({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) }))
      .finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
  await (watcher as StoreWatcher | null)?.close(); // set by a watch request, which TS cannot see
}

function startWatcher(opts: RemoteServeOptions, onAgents: (agents: AgentId[]) => void): StoreWatcher {
  const roots = opts.adapters.map((a) => ({ agent: a.agent, roots: (a.watchRoots?.() ?? a.roots()).map((r) => path.resolve(r)) }));
  const agentOf = (file: string): AgentId | null =>
    roots.find((r) => r.roots.some((root) => file === root || file.startsWith(root + path.sep)))?.agent ?? null;
  return new StoreWatcher(
    roots.flatMap((r) => r.roots),
    {
      debounceMs: opts.debounceMs,
      onChange: (paths) => {
        const agents = [...new Set(paths.map((p) => agentOf(path.resolve(p))).filter((a): a is AgentId => a !== null))];
        if (agents.length) onAgents(agents);
      },
    },
  );
}

/** Sessions an adapter's store holds now, read on the host (only the number leaves it). */
async function countSessions(adapter: SourceAdapter): Promise<number> {
  const ids = new Set<string>();
  for (const unit of await adapter.listUnits()) {
    for await (const batch of adapter.read(unit, { cursor: null, diagnostic: () => {} })) {
      for (const s of batch.sessions) ids.add(s.id);
      for (const id of batch.goneSessions) ids.delete(id);
    }
  }
  return ids.size;
}
