import type { Command } from 'commander';
import { AGENT_LABELS, type ProblemKind } from '../../../shared/model.js';

const MB = 1024 * 1024;

const PROBLEM_LABEL: Record<ProblemKind, string> = {
  unreadable: 'cannot read',
  line_too_long: 'lines lost',
  malformed_lines: 'lines lost',
  invalid_utf8: 'warning',
  unfinished_line: 'unfinished',
};

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('Where Baton looks for each agent, what it found, problems seen, and the index’s health.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      // Loaded when the command runs: `baton --help` must not pay for them.
      const [{ openCliCore }, { describeProblem }] = await Promise.all([import('../cli-core.js'), import('../../../shared/problems.js')]);
      const cli = await openCliCore();
      try {
        // Paths and read errors come from the stores (a folder can be named after a token): redacted.
        const { redacting } = await import('../cli-redaction.js');
        const status = await redacting(cli.core.api, false).sourceStatus({});
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
          const problems = s.problems ?? [];
          if (s.lastError && !problems.some((p) => p.kind === 'unreadable')) out.push(`  error: ${s.lastError}`);
          if (s.skippedLines) out.push(`  skipped lines: ${s.skippedLines}`);
          // Remembered by the index until the file reads: the same list whichever process met them.
          for (const p of problems) out.push(`  ${PROBLEM_LABEL[p.kind]}: ${describeProblem(p)}`);
          // The rest of this process's diagnostics (those with a kind are among the problems above).
          for (const d of s.diagnostics.filter((x) => !x.kind || x.kind === 'reread').slice(-5)) {
            out.push(`  ! ${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
          }
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
