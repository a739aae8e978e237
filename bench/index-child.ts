/**
 * Child-process side of index.bench.ts, so peak RSS (process.resourceUsage().maxRSS) measures one
 * job alone. Modes: `parse <MB>` (host check: JSON.parse alone), `read <agent|big>` (adapter read
 * throughput), `cold <dataDir>` (full cold index, as `baton index --rebuild` runs it).
 * Prints one JSON line (cold: with the CPU time of all threads).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AGENTS, type AgentId } from '../shared/model.js';
import { currentEnvironment } from '../electron/core/paths.js';
import { createAdapters } from '../electron/core/ingest/registry.js';
import { IngestRunner } from '../electron/core/ingest/ingest-runner.js';
import { defaultAdapterModule } from '../electron/core/ingest/worker-launch.js';

const [mode, arg, bigFile] = process.argv.slice(2);
const config = (only?: AgentId) => ({
  agents: Object.fromEntries(AGENTS.map((a) => [a, { enabled: !only || a === only, path: null }])) as Record<AgentId, { enabled: boolean; path: null }>,
});

if (mode === 'parse') {
  // Host check: JSON.parse alone over the first `arg` MB of ordinary Claude sessions' lines, decoded
  // up front. This machine's speed drifts by up to 2× over a day; this row tells a slow host from slow code.
  const limit = Number(arg) * 1024 * 1024;
  const [adapter] = createAdapters(config('claude'), currentEnvironment());
  const lines: string[] = [];
  let bytes = 0;
  for (const unit of await adapter!.listUnits()) {
    if (bytes >= limit) break;
    if (unit.path === bigFile) continue;
    for (const line of fs.readFileSync(unit.path, 'utf8').split('\n')) if (line) lines.push(line);
    bytes += unit.size;
  }
  const started = process.hrtime.bigint();
  for (const line of lines) JSON.parse(line);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`${JSON.stringify({ bytes, seconds })}\n`);
} else if (mode === 'read') {
  const agent = (arg === 'big' ? 'claude' : arg) as AgentId;
  const [adapter] = createAdapters(config(agent), currentEnvironment());
  let units = await adapter!.listUnits();
  if (arg === 'big') units = units.filter((u) => u.path === bigFile);
  else if (bigFile) units = units.filter((u) => u.path !== bigFile);
  const started = process.hrtime.bigint();
  let bytes = 0;
  let messages = 0;
  let sessions = 0;
  for (const unit of units) {
    for await (const batch of adapter!.read(unit, { cursor: null, diagnostic: () => {} })) {
      bytes += batch.bytesRead;
      messages += batch.messages.length;
      sessions += batch.sessions.length;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`${JSON.stringify({ units: units.length, bytes, messages, sessions, seconds, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
} else if (mode === 'cold') {
  // As `baton index --rebuild` runs it: ingest in the heap-capped worker (parsing in its read-ahead
  // worker), this thread only reading. BATON_COLD_INLINE=1 writes on this thread instead, for an A/B.
  const environment = currentEnvironment();
  const adapterArgs = [config(), { ...environment, env: { ...environment.env } }];
  const inline = process.env.BATON_COLD_INLINE === '1';
  const heapMb = process.env.BATON_INGEST_HEAP_MB ? Number(process.env.BATON_INGEST_HEAP_MB) : undefined;
  const log = (level: string, message: string) => level !== 'info' && process.stderr.write(`${level}: ${message}\n`);
  const service = new IngestRunner({
    dataDir: arg!,
    ingest: inline
      ? { kind: 'inline', adapters: createAdapters(config(), environment), readAhead: { adapterModule: defaultAdapterModule(), adapterArgs } }
      : { kind: 'worker', adapterArgs },
    watch: false,
    rebuild: true,
    workerHeapMb: heapMb,
    log,
  });
  const started = process.hrtime.bigint();
  await service.start();
  await service.whenCurrent();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const c = service.counters()!;
  const p = service.progress();
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  const cpu = process.cpuUsage();
  // CPU of all threads (writer + read-ahead worker): steadier than wall time on a shared machine.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // A one-pass run merges FTS segments before it closes (the app does it while watching): timed on its own.
  const compacting = process.hrtime.bigint();
  await service.stop();
  const compactSeconds = Number(process.hrtime.bigint() - compacting) / 1e9;
  const db = new Database(path.join(arg!, 'index.db'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  process.stdout.write(`${JSON.stringify({ seconds, compactSeconds, storeBytes: p.bytesTotal, bytesRead: c.bytesRead, messages: c.messagesWritten, units: c.unitsRead, maxRssMB, cpuSeconds })}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
