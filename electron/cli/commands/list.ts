import type { Command } from 'commander';
import { AGENTS, isAgentId, type AgentId, type Session } from '../../../shared/model.js';
import { nestSubagents } from '../../../shared/session-tree.js';
import { shortestUniquePrefixes, type SessionKey } from '../../core/sessions/short-ids.js';
import { sessionHost } from '../../../shared/machines.js';
import { formatTable, shorten } from './table.js';

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
      // Loaded when the command runs: `baton --help` must not pay for the API client.
      const { openCliApi } = await import('../cli-api.js');
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

/** Subagents under their parent (↳, indented), or marked where the parent is not listed. */
export function sessionTable(sessions: (Session & { continuedFrom?: string })[], universe: SessionKey[]): string {
  const ids = shortestUniquePrefixes(sessions, universe);
  return formatTable(
    ['UPDATED', 'AGENT', 'ID', 'TURNS', 'TITLE', 'DIRECTORY'],
    nestSubagents(sessions).map(({ session: s, depth, subagent }) => {
      const mark = depth > 0 ? `${'  '.repeat(depth - 1)}↳ ` : subagent ? '↳ (subagent) ' : '';
      return [
        (s.updatedAt ?? '').slice(0, 16).replace('T', ' '),
        // A host's session: `devbox/claude`, as its id reads.
        (sessionHost(s.id) ? `${sessionHost(s.id)}/` : '') + s.agent + (s.sourceGone ? ' (gone)' : ''),
        ids.get(s.id) ?? s.id,
        String(s.userTurns),
        // A session Baton continued from another: the source it continues, by its listed id.
        mark + (s.continuedFrom ? `⇠ ${ids.get(s.continuedFrom) ?? s.continuedFrom} ` : '') + shorten(s.title ?? s.firstPrompt ?? '', 48 - mark.length),
        shorten(s.cwd ?? '', 40),
      ];
    }),
  );
}
