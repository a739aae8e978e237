/**
 * Ingest worker thread: builds the adapters from plain config, runs an IndexWriteLoop (cold index,
 * watcher, reconcile) and reports progress and changed sessions to the main thread, which reads
 * the index through its own connection and so never waits for a long write.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, IngestWorkerInit, ToWorker } from './ingest-protocol.js';
import { IndexWriteLoop } from './index-write-loop.js';
import { loadAdapters } from './worker-launch.js';

const port = parentPort;
if (!port) throw new Error('ingest-worker.ts must run in a worker thread');
const init = workerData as IngestWorkerInit;
const send = (m: FromWorker) => port.postMessage(m);

async function main(): Promise<void> {
  const source = { adapterModule: init.adapterModule, adapterArgs: init.adapterArgs };
  const adapters = await loadAdapters(source);
  const live = new IndexWriteLoop({
    dataDir: init.dataDir,
    adapters,
    // A big pass parses in a second worker while this one writes.
    readAhead: source,
    watch: init.watch,
    reconcileMs: init.reconcileMs,
    debounceMs: init.debounceMs,
    log: (level, message) => send({ type: 'log', level, message }),
  });
  live.sync.on('progress', (progress) => send({ type: 'progress', progress }));
  live.sync.on('sessions-changed', (sessionIds) => send({ type: 'sessions-changed', sessionIds }));
  port!.on('message', (m: ToWorker) => {
    if (m.type === 'sync') {
      live.sync.syncAll().then(
        (counters) => send({ type: 'synced', id: m.id, counters }),
        (err) => send({ type: 'log', level: 'error', message: `sync failed: ${String(err)}` }),
      );
    } else if (m.type === 'status') {
      send({ type: 'status', id: m.id, status: live.sync.sourceStatus() });
    } else if (m.type === 'stop') {
      void live.close().finally(() => {
        send({ type: 'stopped' });
        port!.close();
      });
    }
  });
  await live.start();
  send({ type: 'current', counters: { ...live.sync.counters } });
}

main().catch((err: unknown) => {
  send({ type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
