/**
 * Child-process side of index.bench.ts, so peak RSS (process.resourceUsage().maxRSS) measures one
 * job alone. Modes: `read <agent|big>` (adapter read throughput), `cold <dataDir>` (full cold index;
 * parsed in the read-ahead worker unless BATON_READ_AHEAD=0).
 * Prints one JSON line (cold: with the CPU time of all threads).
 */
import { AGENTS, type AgentId } from '../shared/model.js';
import { currentEnvironment } from '../electron/core/paths.js';
import { createAdapters } from '../electron/core/sources/registry.js';
import { LiveIndex } from '../electron/core/index/live-index.js';
import { defaultAdapterModule } from '../electron/core/index/worker-launch.js';

const [mode, arg, bigFile] = process.argv.slice(2);
const config = (only?: AgentId) => ({
  agents: Object.fromEntries(AGENTS.map((a) => [a, { enabled: !only || a === only, path: null }])) as Record<AgentId, { enabled: boolean; path: null }>,
});

if (mode === 'read') {
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
  const environment = currentEnvironment();
  // Parsing runs in a read-ahead worker while this thread writes; BATON_READ_AHEAD=0 for the A/B.
  const readAhead = process.env.BATON_READ_AHEAD === '0' ? undefined : { adapterModule: defaultAdapterModule(), adapterArgs: [config(), { ...environment, env: { ...environment.env } }] };
  const log = (level: string, message: string) => level !== 'info' && process.stderr.write(`${level}: ${message}\n`);
  const live = new LiveIndex({ dataDir: arg!, adapters: createAdapters(config(), environment), watch: false, rebuild: true, readAhead, log });
  const started = process.hrtime.bigint();
  await live.start();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const c = live.sync.counters;
  const p = live.sync.progress();
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  const cpu = process.cpuUsage();
  // CPU of all threads (writer + read-ahead worker): steadier than wall time on a shared machine.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // The app merges FTS segments in the background once current; time it on its own.
  const compacting = process.hrtime.bigint();
  await live.sync.whenCompacted();
  const compactSeconds = Number(process.hrtime.bigint() - compacting) / 1e9;
  live.db.pragma('wal_checkpoint(TRUNCATE)');
  await live.close();
  process.stdout.write(`${JSON.stringify({ seconds, compactSeconds, storeBytes: p.bytesTotal, bytesRead: c.bytesRead, messages: c.messagesWritten, units: c.unitsRead, maxRssMB, cpuSeconds })}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
