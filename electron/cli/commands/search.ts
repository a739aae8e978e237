import type { Command } from 'commander';
import { isAgentId } from '../../../shared/model.js';
import { shorten } from './table.js';
import { styled, type Style } from '../terminal-output.js';

/** A snippet's `[[hit]]` marks as bold around the (sanitised) text. */
function highlighted(snippet: string): (string | { style: Style })[] {
  return snippet.split(/(\[\[|\]\])/).map((part) => (part === '[[' ? { style: 'bold' } : part === ']]' ? { style: 'normal' } : part));
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Full-text search over every session: words, "phrases", prefix*, -exclude, agent:, project:, branch:, after:, before:.')
    .argument('<query...>', 'what to look for')
    .option('--agent <agent>', 'only this agent')
    .option('--limit <n>', 'at most this many hits', (v) => Number.parseInt(v, 10), 20)
    .option('--json', 'print JSON')
    .option('--no-redact', 'show secrets in titles, prompts and snippets (they are masked otherwise)')
    .action(async (words: string[], opts: { agent?: string; limit: number; json?: boolean; redact: boolean }) => {
      if (opts.agent !== undefined && !isAgentId(opts.agent)) throw new Error(`unknown agent "${opts.agent}"`);
      const { openCliApi } = await import('../cli-api.js');
      const cli = await openCliApi(undefined, { reveal: !opts.redact });
      try {
        const hits = await cli.api.search({ query: words.join(' '), agent: opts.agent, limit: opts.limit });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
          return;
        }
        if (hits.length === 0) {
          process.stdout.write('No matches.\n');
          return;
        }
        for (const h of hits) {
          process.stdout.write(`${h.agent}:${h.nativeId.slice(0, 13)}  ${shorten(h.title ?? '', 60)}  (${h.role}, #${h.seq})\n`);
          styled(process.stdout, ['    ', ...highlighted(shorten(h.snippet, 200)), '\n']);
        }
      } finally {
        await cli.close();
      }
    });
}
