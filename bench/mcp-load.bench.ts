/**
 * MCP endpoint under load: 50 concurrent SDK clients × 100 mixed calls (list_sessions,
 * search_all_sessions, generate_brief) over HTTP on 127.0.0.1 against the real core indexing the
 * fixture stores. Reports errors (goal: 0), p50/p99 latency and peak memory. The clients run in
 * the same process as the core, so the RSS figure is an upper bound for the core alone.
 */
import { performance } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BenchContext, BenchRow } from './harness.js';
import { goalRow } from './harness.js';
import { startMcpHarness } from '../testing/mcp/mcp-harness.js';

const CLIENTS = 50;
const CALLS = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function run(ctx?: Pick<BenchContext, 'log' | 'scale'>): Promise<BenchRow[]> {
  const scale = ctx?.scale ?? 1;
  const calls = Math.max(10, Math.round(CALLS * Math.min(1, scale)));
  const h = await startMcpHarness();
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  try {
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => h.connect(`load-${i}`)));
    const sessions = ['opencode:ses_dfea733a5ffejl9rG2UkNbLHH7', 'codex:01a20157-a468', 'hermes:20261122_034250_3252cb', 'claude:dbfcac52'];
    const queries = ['todo.txt', 'git status', 'README', '"quick overview"', 'name -greet', 'NEAR('];
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = 0; i < calls; i++) {
          const kind = (c + i) % 3;
          const args =
            kind === 0
              ? { name: 'list_sessions', arguments: { limit: 20 } }
              : kind === 1
                ? { name: 'search_all_sessions', arguments: { query: queries[(c + i) % queries.length]! } }
                : { name: 'generate_brief', arguments: { session: sessions[(c + i) % sessions.length]!, budget: 3000 } };
          const t0 = performance.now();
          try {
            const result = (await client.callTool(args)) as CallToolResult;
            if (result.isError) errors++;
          } catch {
            errors++;
          }
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const wall = performance.now() - started;
    latencies.sort((a, b) => a - b);
    ctx?.log(`mcp-load: ${latencies.length} calls in ${Math.round(wall)} ms, ${errors} errors`);
    const MB = 1024 * 1024;
    return [
      goalRow('mcp', `errors (${CLIENTS} clients × ${calls} calls)`, errors, 'count', { op: '<', target: 1 }),
      goalRow('mcp', 'call latency p50', percentile(latencies, 50), 'ms', null),
      goalRow('mcp', 'call latency p99', percentile(latencies, 99), 'ms', null),
      goalRow('mcp', 'throughput', latencies.length / (wall / 1000), 'calls/s', null),
      goalRow('mcp', 'peak RSS (core + clients)', peakRss / MB, 'MB', null, 'clients share the process'),
      goalRow('mcp', 'peak heap used', peakHeap / MB, 'MB', null),
    ];
  } finally {
    clearInterval(sampler);
    await h.close();
  }
}
