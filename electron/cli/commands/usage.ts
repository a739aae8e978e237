/** `baton usage`: tokens and cost by session, day, 5-hour block or model, from the index. */
import { Option, type Command } from 'commander';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import type { UsageTotals } from '../../../shared/usage.js';
import { parseAgent } from '../options.js';
import { formatTable, shorten } from './table.js';
import { limitHitsTable } from './usage-limits.js';

const int = (n: number) => n.toLocaleString('en-US');
const usd = (t: UsageTotals) => (t.costUSD === null ? '—' : `$${t.costUSD.toFixed(2)}${t.unpricedModels.length ? '*' : ''}`);
const tokenCells = (t: UsageTotals) => [int(t.inputTokens), int(t.outputTokens), int(t.cacheCreationTokens), int(t.cacheReadTokens), int(t.totalTokens), usd(t)];
const TOKEN_HEAD = ['INPUT', 'OUTPUT', 'CACHE W', 'CACHE R', 'TOTAL', 'COST'];

function parseSince(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) && !/^\d{8}$/.test(value)) throw new Error(`--since expects a date such as 2026-11-01 (got "${value}")`);
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
}

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description('Token usage and cost of every agent, by session, day, 5-hour block or model.')
    .addOption(new Option('--by <grouping>', 'group by').choices(['session', 'day', 'block', 'model']).default('session'))
    .option('--agent <agent>', `only this agent (${AGENTS.join(', ')})`, parseAgent)
    .option('--since <date>', 'only requests on or after this date (YYYY-MM-DD)', parseSince)
    .option('--json', 'print JSON')
    .action(async (opts: { by: 'session' | 'day' | 'block' | 'model'; agent?: AgentId; since?: string; json?: boolean }) => {
      const { openCliApi } = await import('../cli-api.js');
      const cli = await openCliApi();
      try {
        const report = await cli.api.usageReport({ by: opts.by, agent: opts.agent, since: opts.since });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(report.rows, null, 2)}\n`);
          return;
        }
        if (report.rows.length === 0) {
          process.stdout.write('No usage recorded yet.\n');
          return;
        }
        switch (report.by) {
          case 'session':
            process.stdout.write(
              formatTable(
                ['SESSION', 'AGENT', ...TOKEN_HEAD, 'CONTEXT', 'TITLE'],
                report.rows.map((r) => [r.session.slice(0, 22), r.agent, ...tokenCells(r), r.contextPercent === null ? '' : `${r.contextPercent}%`, shorten(r.title ?? '', 40)]),
              ),
            );
            // Each session's own last hit, as the JSON rows carry it.
            process.stdout.write(limitHitsTable(report.rows.flatMap((r) => (r.limitHit ? [r.limitHit] : []))));
            break;
          case 'day':
            process.stdout.write(formatTable(['DAY', ...TOKEN_HEAD, 'AGENTS'], report.rows.map((r) => [r.date, ...tokenCells(r), r.agents.join(', ')])));
            break;
          case 'block':
            process.stdout.write(
              formatTable(
                ['BLOCK START', ...TOKEN_HEAD, 'AGENTS'],
                report.rows.map((r) => [`${r.start.slice(0, 16).replace('T', ' ')}${r.isActive ? ' (active)' : ''}`, ...tokenCells(r), r.agents.join(', ')]),
              ),
            );
            break;
          case 'model':
            process.stdout.write(formatTable(['MODEL', ...TOKEN_HEAD, 'AGENTS'], report.rows.map((r) => [r.model, ...tokenCells(r), r.agents.join(', ')])));
            break;
        }
        if (report.rows.some((r) => r.unpricedModels.length > 0)) process.stdout.write('* some models have no price (see the modelPricing setting); their tokens are not in the cost\n');
      } finally {
        await cli.close();
      }
    });
}
