import type { Command } from 'commander';
import { AGENT_LABELS } from '../../../shared/model.js';
import { openCliCore } from '../cli-core.js';

const MB = 1024 * 1024;

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Where Baton looks for each agent, what it found, problems seen, and the index’s health.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const cli = await openCliCore();
      try {
        const status = await cli.core.api.sourceStatus({});
        const stats = cli.core.sources.reader.stats();
        const lag = { filesBehind: cli.catchUp?.unitsRead ?? 0, bytesBehind: cli.catchUp?.bytesRead ?? 0, catchUpMs: cli.catchUpMs };
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ dataDir: cli.core.dataDir, sources: status, index: stats, lag }, null, 2)}\n`);
          return;
        }
        const out: string[] = [];
        for (const s of status) {
          const mark = s.state === 'ok' ? 'ok' : s.state.replace('_', ' ');
          if (s.host) {
            // Another machine's agent (read over ssh): its own session count; messages are per agent only.
            out.push(`${AGENT_LABELS[s.agent]} on ${s.host}: ${mark} — ${s.sessions} sessions in the index`);
          } else {
            const indexed = stats.byAgent[s.agent] ?? { sessions: 0, messages: 0 };
            out.push(`${AGENT_LABELS[s.agent]}: ${mark} — ${indexed.sessions} sessions, ${indexed.messages} messages in the index`);
          }
          out.push(`  looked in: ${s.roots.join(', ') || '(nowhere)'}`);
          if (s.lastError) out.push(`  error: ${s.lastError}`);
          if (s.skippedLines) out.push(`  skipped lines: ${s.skippedLines}`);
          for (const d of s.diagnostics.slice(-5)) out.push(`  ! ${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
        }
        out.push(
          `Index: ${cli.core.dataDir}/index.db, ${(stats.bytesOnDisk / MB).toFixed(1)} MB, ${stats.sessions} sessions ` +
            `(${stats.goneSessions} source gone), ${stats.messages} messages, ${stats.units} files/databases tracked`,
        );
        out.push(
          `Lag: ${lag.filesBehind} file(s), ${(lag.bytesBehind / MB).toFixed(2)} MB behind the stores; caught up in ${lag.catchUpMs} ms`,
        );
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await cli.close();
      }
    });
}
