import type { Command } from 'commander';
import { AGENTS, isAgentId, type AgentId } from '../../../shared/model.js';

function agentOption(value: string | undefined): AgentId | undefined {
  if (value === undefined) return undefined;
  if (!isAgentId(value)) throw new Error(`unknown agent "${value}" (expected ${AGENTS.join(', ')})`);
  return value;
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('List sessions of every agent, newest first.')
    .option('--agent <agent>', `only this agent (${AGENTS.join(', ')})`)
    .option('--project <text>', 'only sessions whose directory contains this text')
    .option('--limit <n>', 'at most this many sessions', (v) => Number.parseInt(v, 10), 1000)
    .option('--json', 'print JSON')
    .option('--no-redact', 'show secrets in titles, prompts and snippets (they are masked otherwise)')
    .action(async (opts: { agent?: string; project?: string; limit: number; json?: boolean; redact: boolean }) => {
      const agent = agentOption(opts.agent);
      // Loaded when the command runs: `baton --help` must not pay for the API client or the table.
      const [{ openCliApi }, { sessionTable }] = await Promise.all([import('../cli-api.js'), import('./list-table.js')]);
      const cli = await openCliApi(undefined, { reveal: !opts.redact });
      try {
        const page = await cli.api.listSessions({ agent, project: opts.project, limit: Math.min(opts.limit, 1000), offset: 0 });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(page.sessions, null, 2)}\n`);
          return;
        }
        if (page.sessions.length === 0) {
          process.stdout.write('No sessions found. Run `baton doctor` to see where Baton looked.\n');
          return;
        }
        process.stdout.write(sessionTable(page.sessions, await cli.sessionKeys()));
        if (page.total > page.sessions.length) process.stdout.write(`… ${page.total - page.sessions.length} more (use --limit)\n`);
      } finally {
        await cli.close();
      }
    });
}
