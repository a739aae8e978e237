import type { Command } from 'commander';
import { isAgentId, type AgentId, type Session } from '../../../shared/model.js';
import { nestSubagents } from '../../../shared/session-tree.js';
import type { BatonCore } from '../../core/service.js';
import { shortestUniquePrefixes, type SessionKey } from '../../core/sessions/short-ids.js';
import { openCliCore } from '../cli-core.js';
import { formatTable, shorten } from './table.js';

function agentOption(value: string | undefined): AgentId | undefined {
  if (value === undefined) return undefined;
  if (!isAgentId(value)) throw new Error(`unknown agent "${value}" (expected claude, codex, opencode or hermes)`);
  return value;
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('List sessions of every agent, newest first.')
    .option('--agent <agent>', 'only this agent (claude, codex, opencode, hermes)')
    .option('--project <text>', 'only sessions whose directory contains this text')
    .option('--limit <n>', 'at most this many sessions', (v) => Number.parseInt(v, 10), 1000)
    .option('--json', 'print JSON')
    .action(async (opts: { agent?: string; project?: string; limit: number; json?: boolean }) => {
      const agent = agentOption(opts.agent);
      const cli = await openCliCore();
      try {
        const page = await cli.core.api.listSessions({ agent, project: opts.project, limit: Math.min(opts.limit, 1000), offset: 0 });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(page.sessions, null, 2)}\n`);
          return;
        }
        if (page.sessions.length === 0) {
          process.stdout.write('No sessions found. Run `baton doctor` to see where Baton looked.\n');
          return;
        }
        process.stdout.write(sessionTable(page.sessions, everySession(cli.core)));
        if (page.total > page.sessions.length) process.stdout.write(`… ${page.total - page.sessions.length} more (use --limit)\n`);
      } finally {
        await cli.close();
      }
    });
}

/** Every session a `<ref>` can match (hidden ones too): the IDs shown must be unique among them. */
function everySession(core: BatonCore): SessionKey[] {
  const keys: SessionKey[] = [];
  for (let offset = 0; ; ) {
    const page = core.sources.reader.listSessions({ limit: 10_000, offset });
    keys.push(...page.sessions.map((s) => ({ id: s.id, nativeId: s.nativeId })));
    offset += page.sessions.length;
    if (page.sessions.length === 0 || offset >= page.total) return keys;
  }
}

/** Subagents under their parent (↳, indented), or marked where the parent is not listed. */
export function sessionTable(sessions: Session[], universe: SessionKey[]): string {
  const ids = shortestUniquePrefixes(sessions, universe);
  return formatTable(
    ['UPDATED', 'AGENT', 'ID', 'TURNS', 'TITLE', 'DIRECTORY'],
    nestSubagents(sessions).map(({ session: s, depth, subagent }) => {
      const mark = depth > 0 ? `${'  '.repeat(depth - 1)}↳ ` : subagent ? '↳ (subagent) ' : '';
      return [
        (s.updatedAt ?? '').slice(0, 16).replace('T', ' '),
        s.agent + (s.sourceGone ? ' (gone)' : ''),
        ids.get(s.id) ?? s.id,
        String(s.userTurns),
        mark + shorten(s.title ?? s.firstPrompt ?? '', 48 - mark.length),
        shorten(s.cwd ?? '', 40),
      ];
    }),
  );
}
