/**
 * Read-ahead worker thread: builds its own adapters from plain config and reads the units of one
 * big sync in order, posting each batch as soon as it is parsed, so parsing (here) and SQLite
 * writes (on the writer's thread) use both cores. At most `maxInFlight` batches holding at most
 * `maxInFlightBytes` wait unapplied: a count alone would let a few big batches take too much
 * memory, or stall on many one-batch files whose parse times vary.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CLAIM, FLOW, type FromReadAhead, type ReadAheadInit, type ToReadAhead } from './read-ahead-protocol.js';
import { loadAdapters } from './worker-launch.js';
import { withIndexForms } from '../index/index-writer.js';
import { packBatch } from './batch-pack.js';

const port = parentPort;
if (!port) throw new Error('read-ahead-worker.ts must run in a worker thread');
const init = workerData as ReadAheadInit;
const send = (m: FromReadAhead, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const abort = new AbortController();

/** Batches and bytes read posted so far; the writer counts what it applied in `flow` (shared). */
let posted = 0;
let postedBytes = 0n;
const flow = new BigInt64Array(init.flow);
const claims = new Int8Array(init.claims);
const inFlight = () => posted - Number(Atomics.load(flow, FLOW.applied));
const inFlightBytes = () => Number(postedBytes - Atomics.load(flow, FLOW.appliedBytes));
let wake: (() => void) | null = null;
port.on('message', (m: ToReadAhead) => {
  // An ack only wakes a wait for room: the counts themselves are read from `flow`.
  if (m.type === 'stop') abort.abort();
  wake?.();
  wake = null;
});

function full(bytes: number): boolean {
  const n = inFlight();
  return n > 0 && (n >= init.maxInFlight || inFlightBytes() + bytes > init.maxInFlightBytes);
}

/**
 * The FTS texts are prepared on whichever thread has time to spare: here while the writer has
 * `formsAheadAt` of the room or more still to apply, else on the writer's thread, which would
 * otherwise wait for this one. Which thread has the time changes with the stores (a Codex rollout
 * is parse-heavy, a Claude transcript write-heavy) and the machine.
 */
function writerBusy(): boolean {
  const at = init.formsAheadAt;
  return inFlight() >= init.maxInFlight * at || inFlightBytes() >= init.maxInFlightBytes * at;
}

async function room(bytes: number): Promise<void> {
  while (full(bytes) && !abort.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
}

async function main(): Promise<void> {
  // This machine's stores only: remote hosts' adapters (same agent ids) are read by the writer.
  const adapters = new Map((await loadAdapters(init)).filter((a) => !a.host).map((a) => [a.agent, a] as const));
  for (const [index, item] of init.items.entries()) {
    if (abort.signal.aborted) return;
    // Taken by the writer's thread, which reads it itself (it had nothing else to do).
    if (Atomics.compareExchange(claims, index, CLAIM.none, CLAIM.worker) !== CLAIM.none) continue;
    const adapter = item.remote ? undefined : adapters.get(item.agent);
    if (!adapter) {
      send({ type: 'skip', index });
      continue;
    }
    try {
      const batches = adapter.read(item.unit, {
        cursor: item.cursor,
        signal: abort.signal,
        diagnostic: (diagnostic) => send({ type: 'diagnostic', index, diagnostic }),
      });
      for await (const batch of batches) {
        await room(batch.bytesRead);
        if (abort.signal.aborted) return;
        const { packed, transfer } = packBatch(writerBusy() ? withIndexForms(batch) : batch);
        posted++;
        postedBytes += BigInt(batch.bytesRead);
        send({ type: 'batch', index, batch: packed }, transfer);
        Atomics.add(flow, FLOW.posted, 1n);
      }
      send({ type: 'end', index });
    } catch (err) {
      if (abort.signal.aborted) return;
      send({ type: 'error', index, message: err instanceof Error ? err.message : String(err) });
    }
  }
  send({ type: 'status', status: [...adapters.values()].map((a) => a.status()) });
}

// The writer terminates this thread once it has what it needs (or gives up on it).
main().catch((err: unknown) => send({ type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
